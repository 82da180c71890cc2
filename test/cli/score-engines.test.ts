/**
 * `evalstream score --engine memory|duckdb [--db FILE]`: the SQL engine writes the same summary.json
 * bytes as the in-memory engine on the golden inputs (Harbor job examples, Gym rollouts, a run
 * bundle); `--db` works with either engine and re-scoring a run into it changes no row count.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryJson, runCli } from './run-cli.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-score-engines-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const COUNTS = `SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM tasks) AS tasks,
  (SELECT count(*) FROM trials) AS trials, (SELECT count(*) FROM scores) AS scores,
  (SELECT count(*) FROM score_outputs) AS outputs, (SELECT count(*) FROM tool_calls) AS tool_calls`;

const score = (input: string, out: string, ...extra: string[]) =>
  runCli(['score', input, '--out', out, '--run-id', 'R1', '--no-report', '--no-progress', ...extra]);

describe('score --engine duckdb', () => {
  it('writes the same summary.json bytes as the memory engine on the golden inputs', async () => {
    const inputs = [
      'examples/harbor-job',
      'test/fixtures/harbor/job-2026-01-05',
      'test/fixtures/gym/rollouts.jsonl',
      'examples/sparse-run',
    ];
    for (const [i, input] of inputs.entries()) {
      const texts: string[] = [];
      for (const engine of ['memory', 'duckdb']) {
        const out = join(root, `golden-${i}-${engine}`);
        const r = await score(input, out, '--engine', engine);
        expect(r.code, r.stderr).toBe(0);
        texts.push(readFileSync(join(out, 'summary.json'), 'utf8'));
        // --engine duckdb keeps its default store in the bundle; memory writes none without --db
        expect(existsSync(join(out, 'evalstream.duckdb'))).toBe(engine === 'duckdb');
      }
      expect(texts[1], input).toBe(texts[0]);
      expect(JSON.parse(texts[0] as string)).toHaveProperty('scores.scores');
    }
  }, 120_000);

  it('--db works with either engine; re-scoring the run leaves every row count unchanged', async () => {
    for (const engine of ['memory', 'duckdb']) {
      const db = join(root, `store-${engine}.duckdb`);
      const out = join(root, `store-${engine}`);
      let first: Record<string, unknown>[] | null = null;
      for (let round = 0; round < 2; round++) {
        const r = await score('examples/harbor-job', out, '--engine', engine, '--db', db);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`wrote ${out} and ${db}`);
        const counts = await queryJson(db, COUNTS);
        expect(counts[0]).toMatchObject({ runs: 1, trials: 3, scores: 8 });
        first ??= counts;
        expect(counts).toEqual(first);
      }
      expect(existsSync(join(out, 'evalstream.duckdb'))).toBe(false);
      const rows = await queryJson(db, `SELECT DISTINCT run_id, metric_type FROM scores ORDER BY ALL`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r['run_id'] === 'R1')).toBe(true);
    }
  }, 120_000);
});
