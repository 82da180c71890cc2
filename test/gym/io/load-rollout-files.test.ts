import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { row, runAggregate, tempDir, writeJsonl } from '../gym-test-helpers.js';

const child = join(import.meta.dirname, 'parallel-aggregate-child.ts');
const runParallel = (
  input: string,
  output: string,
  mode?: 'pass-at-k',
): { rows?: number; warnings?: string[]; error?: string; scanWorkers?: number; mergedInWorker?: boolean } =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', child, input, output, ...(mode ? [mode] : [])], {
      encoding: 'utf8',
      // a worker left running keeps the child alive: fail instead of hanging the suite
      timeout: 30_000,
    }),
  );

function rows(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = (i * 7919) % 251;
    const r = i % 7;
    const text = 'lorem ipsum '.repeat(1 + (i % 40));
    out.push(
      row(
        t,
        r + 7 * Math.floor(i / 1757),
        {
          reward: i % 3 === 0 ? 1 : 0,
          response: { output: [{ text }], usage: { input_tokens: i % 97, output_tokens: (i * 31) % 1000 } },
          judge: i % 11 === 0 ? 'n/a' : (i % 13) / 13,
          flag: i % 2 === 0,
        },
        i % 5 === 0 ? 'beta' : 'alpha',
      ),
    );
  }
  return out;
}

/**
 * Aggregates 3000 rows in one thread (this process) and with two threads (a child), asserts that the
 * merged and metrics files are identical, and returns both results.
 */
async function aggregateBothWays(mode?: 'pass-at-k', lines = rows(3000)) {
  const dir = tempDir();
  const input = writeJsonl(dir, 'in.jsonl', lines);
  const sequential = await runAggregate({
    inputGlob: input,
    output: join(dir, 'seq.jsonl'),
    parallel: { workers: 1 },
    ...(mode === 'pass-at-k' ? { hooks: { passAtK: {} } } : {}),
  });
  const parallel = runParallel(input, join(dir, 'par.jsonl'), mode);
  expect(parallel.rows).toBe(lines.length);
  expect(parallel.warnings).toEqual(sequential.warnings);
  expect(readFileSync(join(dir, 'par.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'seq.jsonl'), 'utf8'));
  expect(readFileSync(join(dir, 'par_aggregate_metrics.json'), 'utf8')).toBe(
    readFileSync(join(dir, 'seq_aggregate_metrics.json'), 'utf8'),
  );
  return { sequential: sequential.result, parallel };
}

describe('loadRolloutFiles with worker threads', () => {
  it('gives the same merged file, metrics file and warnings as reading in one thread', async () => {
    const { sequential, parallel } = await aggregateBothWays();
    // split into ranges (a small input may be read before the worker is up: 1, else 2)
    expect(parallel.scanWorkers).toBeGreaterThanOrEqual(1);
    expect(parallel.mergedInWorker).toBe(true);
    expect(sequential.scanWorkers).toBe(0);
    expect(sequential.mergedInWorker).toBe(false);
  }, 60_000);

  it('gives the same files when ranges meet field names in different orders, big ints and raw rewards', async () => {
    // each range's table numbers the keys in the order it meets them; exact big ints and non-numeric
    // rewards are kept by item index in the range's own table
    const lines: string[] = [];
    for (let i = 0; i < 2500; i++) {
      const reward = i % 9 === 0 ? '"n/a"' : i % 2 === 0 ? '1.0' : '0';
      const a = `f${(i * 7) % 13}`;
      const b = `f${(i * 5 + 3) % 11}`;
      lines.push(
        `{"_ng_task_index":${(i * 7919) % 211},"_ng_rollout_index":${(i % 6) + 6 * Math.floor(i / 1266)},` +
          `"reward":${reward},"${a}":${i % 17},"${b}":${(i % 23) / 4},"id":${12345678901234567000n + BigInt(i)},` +
          `"response":{"usage":{"u${i % 5}":${i % 31}}},"agent_ref":{"name":"${i % 4 === 0 ? 'beta' : 'alpha'}"}}`,
      );
    }
    await aggregateBothWays(undefined, lines);
  }, 60_000);

  it('merges in a worker while this thread scans alone (a run that keeps per-row extras)', async () => {
    const { sequential, parallel } = await aggregateBothWays('pass-at-k');
    expect(parallel.scanWorkers).toBe(0);
    expect(parallel.mergedInWorker).toBe(true);
    expect(sequential.mergedInWorker).toBe(false);
  }, 60_000);

  it('reports a bad line and exits while a merge worker waits (this thread scanning alone)', () => {
    const dir = tempDir();
    const lines = rows(2000);
    lines[700] = 'not json';
    const input = writeJsonl(dir, 'bad.jsonl', lines);
    expect(runParallel(input, join(dir, 'o.jsonl'), 'pass-at-k').error).toBe(
      `Malformed JSON in '${input}' at line 701: unexpected token 'o', "not json" is not valid JSON`,
    );
  }, 60_000);

  it('reports the first bad line with its line number in the whole file', () => {
    const dir = tempDir();
    const lines = rows(2000);
    lines[1500] = '{"_ng_task_index": 1, oops}';
    lines[1900] = 'not json';
    const input = writeJsonl(dir, 'bad.jsonl', lines);
    expect(runParallel(input, join(dir, 'o.jsonl')).error).toBe(
      `Malformed JSON in '${input}' at line 1501, column 23: expected double-quoted property name`,
    );
  }, 60_000);

  it('writes the merged file in a worker while failing on duplicate keys, as the sequential run does', async () => {
    const dir = tempDir();
    const lines = rows(2000);
    lines.push(lines[10] as string);
    const input = writeJsonl(dir, 'dup.jsonl', lines);
    const sequential = await runAggregate({
      inputGlob: input,
      output: join(dir, 'seq.jsonl'),
      parallel: { workers: 1 },
    }).catch((e: Error) => e.message);
    const parallel = runParallel(input, join(dir, 'par.jsonl'));
    expect(parallel.error).toBe((sequential as string).replaceAll('seq.jsonl', 'par.jsonl'));
    expect(parallel.error).toContain('Duplicate (task, rollout) rows');
    expect(existsSync(join(dir, 'par.jsonl'))).toBe(true);
    expect(readFileSync(join(dir, 'par.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'seq.jsonl'), 'utf8'));
  }, 60_000);
});
