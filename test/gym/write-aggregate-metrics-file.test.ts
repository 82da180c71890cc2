import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GymGroupLevels } from '../../src/gym/compute/gym-group-levels.js';
import type { PyJson } from '../../src/pycompat/py-json.js';
import { writePyJsonFile } from '../pycompat/write-py-json-file.js';
import { row, runAggregate, tempDir, writeJsonl } from './gym-test-helpers.js';

/** Runs the aggregate and returns the streamed metrics text and the text of the materialized objects. */
async function bothTexts(rows: string[]): Promise<{ streamed: string; generic: string; pending: boolean }> {
  const dir = tempDir();
  writeJsonl(dir, 'shard.jsonl', rows);
  const write = vi.spyOn(GymGroupLevels.prototype, 'write');
  const { result } = await runAggregate({
    inputGlob: join(dir, 'shard.jsonl'),
    output: join(dir, 'm.jsonl'),
  });
  const streamed = readFileSync(join(dir, 'm_aggregate_metrics.json'), 'utf8');
  const pending = write.mock.calls.length === result.agents.length;
  write.mockRestore();
  // reading group_level_metrics builds the objects; the generic writer then writes them
  writePyJsonFile(join(dir, 'generic.json'), result.agents as unknown as PyJson, { indent: 2 });
  return { streamed, generic: readFileSync(join(dir, 'generic.json'), 'utf8'), pending };
}

describe('writeAggregateMetricsFile: streamed group entries', () => {
  it('are the bytes of the generic writer over the built objects (ints, floats, big ints, raw rewards, usage)', async () => {
    const rows = [
      row(3, 1, { reward: 1, score: 0.1, n: 12345678901234567890n.toString(), big: 1 }).replace(
        '"big":1',
        '"big":123456789012345678',
      ),
      row(3, 0, { reward: 0, score: 1e-7, response: { usage: { input_tokens: 7, total_tokens: 9 } } }),
      row(-2, 0, { reward: null, score: -0.0, flag: true }),
      row(-2, 5, { reward: 'x', score: 2.5e20, flag: false }),
      row(10, 0, { reward: { a: [1, 2] }, score: 3 }, 'agent_b'),
      row(10, 1, { reward: 1, score: Number.MAX_SAFE_INTEGER }, 'agent_b'),
    ];
    const { streamed, generic, pending } = await bothTexts(rows);
    expect(pending).toBe(true);
    expect(streamed).toBe(generic);
    const agents = JSON.parse(streamed) as { group_level_metrics: { rollout_infos: unknown[] }[] }[];
    expect(agents[0]?.group_level_metrics[0]?.rollout_infos[0]).toEqual({
      rollout_id: '-2:0',
      _ng_task_index: -2,
      _ng_rollout_index: 0,
      reward: null,
      score: 0,
      flag: 1,
    });
  });

  it('all-int frames write max/min as ints, as the generic writer does', async () => {
    const rows = [row(0, 0, { k: 2 }), row(0, 1, { k: -3 }), row(1, 0, { k: 9007199254740992 })];
    const { streamed, generic } = await bothTexts(
      rows.map((r) => r.replace('9007199254740992', '9007199254740993')),
    );
    expect(streamed).toBe(generic);
    expect(streamed).toContain('"min/k": -3');
  });

  it('falls back to the built objects when an info key is an array index or a leading key', async () => {
    const rows = [
      row(0, 0, { reward: 1, '7': 1, response: { usage: { _ng_task_index: 4 } } }),
      row(0, 1, { reward: 0, '7': 2 }),
    ];
    const { streamed, generic } = await bothTexts(rows);
    expect(streamed).toBe(generic);
  });
});
