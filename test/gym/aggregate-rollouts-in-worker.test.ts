import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aggregateRolloutsInWorker } from '../../src/gym/aggregate-rollouts-in-worker.js';
import { GymInputError } from '../../src/gym/gym-input-error.js';
import { loadGymHooks } from '../../src/gym/load-gym-hooks.js';
import { row, runAggregate, tempDir, writeJsonl } from './gym-test-helpers.js';

const ROWS = [
  row(1, 0, { reward: 1, tokens: 7 }),
  row(0, 1, { reward: 0, tokens: 'n/a' }),
  row(0, 0, { reward: 1, tokens: 3 }),
  row(1, 1, { reward: 1, tokens: 5 }),
  row(2, 0, { reward: 0.5, tokens: 4 }),
];

async function inWorker(options: Parameters<typeof aggregateRolloutsInWorker>[0]) {
  const lines: string[] = [];
  const warnings: string[] = [];
  const result = await aggregateRolloutsInWorker(
    options,
    (l) => lines.push(l),
    (w) => warnings.push(w),
  );
  return { result, lines, warnings };
}

describe('aggregateRolloutsInWorker', () => {
  it('writes the same files, log lines and warnings as aggregateRollouts in this thread', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'a.jsonl', ROWS.slice(0, 3));
    writeJsonl(dir, 'b.jsonl', ROWS.slice(3));
    const input = join(dir, '*.jsonl');
    const here = await runAggregate({ inputGlob: input, output: join(dir, 'here', 'm.jsonl') });
    const there = await inWorker({ options: { inputGlob: input, output: join(dir, 'there', 'm.jsonl') } });
    expect(there.result).not.toBeNull();
    expect(there.result?.files).toEqual(here.result.files);
    expect(there.result?.rows).toBe(5);
    expect(there.result?.metricsPath).toBe(join(dir, 'there', 'm_aggregate_metrics.json'));
    expect(there.lines).toEqual(here.lines.map((l) => l.replaceAll(join(dir, 'here'), join(dir, 'there'))));
    expect(there.warnings).toEqual(here.warnings);
    expect(there.warnings.length).toBeGreaterThan(0);
    for (const f of ['m.jsonl', 'm_aggregate_metrics.json']) {
      expect(readFileSync(join(dir, 'there', f), 'utf8')).toBe(readFileSync(join(dir, 'here', f), 'utf8'));
    }
  });

  it('loads the hooks module and pass@k in the worker', async () => {
    const dir = tempDir();
    const input = writeJsonl(dir, 'r.jsonl', ROWS);
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, 'export function computeMetrics(tasks) { return { tasks: tasks.length }; }\n');
    const { result } = await inWorker({
      options: { inputGlob: input, output: join(dir, 'o.jsonl'), merge: false },
      hooksModule: hooks,
      passAtK: {},
    });
    const text = readFileSync(result?.metricsPath as string, 'utf8');
    const [agent] = JSON.parse(text);
    expect(agent.agent_metrics['tasks']).toBe(3);
    expect(agent.agent_metrics).toHaveProperty('pass@1/accuracy');
    const here = await runAggregate({
      inputGlob: input,
      output: join(dir, 'p.jsonl'),
      merge: false,
      hooks: { ...(await loadGymHooks(hooks)), passAtK: {} },
    });
    expect(readFileSync(here.result.metricsPath as string, 'utf8')).toBe(text);
  });

  it('rejects with the GymInputError of the worker: code, message, file and line', async () => {
    const dir = tempDir();
    const input = writeJsonl(dir, 'bad.jsonl', [ROWS[0] as string, '{"_ng_task_index": 0,']);
    const error = await inWorker({ options: { inputGlob: input, output: join(dir, 'o.jsonl') } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GymInputError);
    expect(error).toMatchObject({
      code: 'malformed_json',
      file: input,
      line: 2,
      message: `Malformed JSON in '${input}' at line 2, column 22: expected a string key, found end of line`,
    });
  });
});
