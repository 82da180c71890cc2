import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialItem } from '../../src/model/trial-item.js';
import { fromGymRollouts } from '../../src/sources/from-gym-rollouts.js';
import { InputError } from '../../src/sources/input-error.js';

const rollouts = fileURLToPath(new URL('../fixtures/gym/rollouts.jsonl', import.meta.url));
const all = (paths: string[]): Promise<TrialItem[]> => lastValueFrom(fromGymRollouts(paths).pipe(toArray()));
const collect = (
  paths: string[],
  options: Parameters<typeof fromGymRollouts>[1] = {},
): Promise<{ ids: string[]; error: unknown }> =>
  new Promise((resolve) => {
    const ids: string[] = [];
    fromGymRollouts(paths, options).subscribe({
      next: (i) => ids.push(i.trial.id),
      error: (error: unknown) => resolve({ ids, error }),
      complete: () => resolve({ ids, error: null }),
    });
  });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gym-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Expected values read off test/fixtures/gym/rollouts.jsonl by hand.
describe('fromGymRollouts', () => {
  it('one trial per row: task _ng_task_index, repeat _ng_rollout_index, reward in metadata', async () => {
    const items = await all([rollouts]);
    expect(items.map((i) => [i.trial.task_id, i.trial.id, i.trial.metadata['reward']])).toEqual([
      ['0', 'math_agent:0-0', 1.0],
      ['0', 'math_agent:0-1', 0.0],
      ['1', 'math_agent:1-0', 1.0],
      ['1', 'math_agent:1-1', true],
    ]);
    expect(items.map((i) => i.origin.line)).toEqual([1, 2, 3, 4]);
    expect(items.every((i) => i.trial.status === 'completed' && i.evidence === null)).toBe(true);
  });

  it('usage → measurements, message output_text → output text, scalar fields → metadata', async () => {
    const [first, , , last] = await all([rollouts]);
    expect(first?.trial.measurements).toEqual({
      prompt_tokens: 120,
      completion_tokens: 45,
      total_tokens: 165,
      cache_creation_tokens: null,
      cache_read_tokens: 0,
      runtime_sec: null,
      cost_usd: null,
    });
    expect(first?.trial.output?.output_text).toBe('17 * 23 = 391');
    expect(first?.trial.metadata).toEqual({
      reward: 1.0,
      extracted_answer: '391',
      expected_answer: '391',
      _ng_task_index: 0,
      _ng_rollout_index: 0,
      agent_ref: { type: 'responses_api_agents', name: 'math_agent' },
    });
    expect(last?.trial.measurements.cache_read_tokens).toBe(96);
    expect(last?.trial.metadata['_ng_attempt_index']).toBe(1);
    expect(last?.trial.output?.output_text).toBe('The answer is 1024.');
  });

  it('reads gzip; missing indexes count as 0; Chat Completions usage names accepted', async () => {
    const gz = join(dir, 'r.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(rollouts)));
    expect((await all([gz])).map((i) => i.trial.id)).toEqual([
      'math_agent:0-0',
      'math_agent:0-1',
      'math_agent:1-0',
      'math_agent:1-1',
    ]);
    const plain = join(dir, 'plain.jsonl');
    writeFileSync(
      plain,
      '{"reward": null, "response": {"usage": {"prompt_tokens": 5, "completion_tokens": 2}}}\n\n',
    );
    const [item] = await all([plain]);
    expect(item?.trial.id).toBe('0-0');
    expect(item?.trial.task_id).toBe('0');
    expect(item?.trial.metadata).toEqual({ reward: null });
    expect(item?.trial.measurements).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
    });
  });

  it('a bad line errors with file and line after the rows before it', async () => {
    const bad = join(dir, 'bad.jsonl');
    const lines = readFileSync(rollouts, 'utf8').split('\n');
    writeFileSync(bad, `${lines[0]}\n${lines[1]}\n{"reward": 1, "_ng_task_index": 2\n`);
    const { ids, error } = await collect([bad]);
    expect(ids).toEqual(['math_agent:0-0', 'math_agent:0-1']);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(3);
    expect((error as Error).message).toMatch(/bad\.jsonl: line 3: not valid JSON/);
  });

  it('a duplicate (task, rollout) key errors like Gym', async () => {
    const dup = join(dir, 'dup.jsonl');
    writeFileSync(
      dup,
      '{"_ng_task_index": 3, "_ng_rollout_index": 1}\n{"_ng_task_index": 3, "_ng_rollout_index": 1}\n',
    );
    const { ids, error } = await collect([dup]);
    expect(ids).toEqual(['3-1']);
    expect((error as Error).message).toContain(
      'line 2: Duplicate materialized input row for rollout key (3, 1)',
    );
  });

  it('a non-integer index is refused naming the field', async () => {
    const f = join(dir, 'idx.jsonl');
    writeFileSync(f, '{"_ng_task_index": "a"}\n');
    const { error } = await collect([f]);
    expect((error as InputError).field).toBe('_ng_task_index');
  });

  it('with onIssue, a line that is not JSON or not a row is reported and skipped; the others are read', async () => {
    const f = join(dir, 'skip.jsonl');
    writeFileSync(
      f,
      [
        '{"_ng_task_index": 1, "_ng_rollout_index": 0}',
        '{"_ng_task_index": 1,',
        '[1, 2]',
        '{"_ng_task_index": "a"}',
        '{"_ng_task_index": 2, "_ng_rollout_index": 0}',
      ].join('\n') + '\n',
    );
    const issues: InputError[] = [];
    const { ids, error } = await collect([f], { onIssue: (issue) => issues.push(issue) });
    expect(error).toBeNull();
    expect(ids).toEqual(['1-0', '2-0']);
    expect(issues.map((i) => [i.line, i.field, i.diagnostic])).toEqual([
      [2, null, 'skipped_payload'],
      [3, null, 'skipped_payload'],
      [4, '_ng_task_index', 'skipped_payload'],
    ]);
    expect(issues.map((i) => i.reason)).toEqual([
      expect.stringMatching(/^not valid JSON: .*; skipped$/) as unknown,
      'a rollout row must be a JSON object; skipped',
      '_ng_task_index must be an integer; skipped',
    ]);
  });

  it('with onIssue, a cut-off last line and a duplicate key still end the stream', async () => {
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, '{"_ng_task_index": 1, "_ng_rollout_index": 0}\n{"_ng_task_index": 2, "_ng');
    const dup = join(dir, 'dup2.jsonl');
    writeFileSync(
      dup,
      '{"_ng_task_index": 3, "_ng_rollout_index": 1}\n{"_ng_task_index": 3, "_ng_rollout_index": 1}\n',
    );
    const onIssue = (): void => {
      throw new Error('not a skippable problem');
    };
    const a = await collect([cut], { onIssue });
    expect(a.ids).toEqual(['1-0']);
    expect((a.error as Error).message).toMatch(/cut\.jsonl: line 2: not valid JSON: .*the file is cut off/);
    const b = await collect([dup], { onIssue });
    expect((b.error as Error).message).toContain('line 2: Duplicate materialized input row');
  });
});
