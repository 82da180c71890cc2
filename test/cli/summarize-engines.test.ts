/**
 * `evalstream summarize --engine memory|duckdb [--db FILE]`: both engines must write byte-identical
 * `summary.json` on the golden bundles (the spec §9 example, `examples/sparse-run`, bundles scored from
 * the Harbor/Gym fixtures) and on a generated bundle with the awkward cases (int vs float literals,
 * NaN/±Infinity, booleans, labels, failed scores, repeated trial ids, views of every reducer, no
 * tasks.jsonl, no run.json, a cut-off last line); `--db` fills the store idempotently.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeTrickyBundle } from '../sql-summary/write-tricky-bundle.js';
import { queryJson, runCli } from './run-cli.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-summarize-engines-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let n = 0;
/** Summarizes `src` with both engines into fresh dirs; returns the two summary.json texts. */
async function bothEngines(src: string, extra: string[] = [], code = 0): Promise<[string, string]> {
  const texts: string[] = [];
  for (const engine of ['memory', 'duckdb']) {
    const out = join(root, `out-${++n}-${engine}`);
    const r = await runCli(['summarize', src, '--out', out, '--engine', engine, '--no-report', ...extra]);
    expect(r.code, r.stderr).toBe(code);
    texts.push(await readFile(join(out, 'summary.json'), 'utf8'));
  }
  return texts as [string, string];
}

const COUNTS = `SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM tasks) AS tasks,
  (SELECT count(*) FROM trials) AS trials, (SELECT count(*) FROM scores) AS scores,
  (SELECT count(*) FROM score_outputs) AS outputs, (SELECT count(*) FROM tool_calls) AS tool_calls,
  (SELECT count(*) FROM spans) AS spans`;

const EXAMPLE = 'examples/sparse-run';
const SDK_SPARSE = 'test/fixtures/bundle/sdk-sparse';

describe('summarize --engine duckdb', () => {
  it('writes the same summary.json bytes as the memory engine on the golden bundles', async () => {
    for (const src of [EXAMPLE, SDK_SPARSE]) {
      const [memory, duckdb] = await bothEngines(src);
      expect(duckdb).toBe(memory);
      expect(duckdb).toBe(await readFile(join(src, 'summary.json'), 'utf8'));
    }
  }, 60_000);

  it('agrees with the memory engine on bundles scored from the Harbor and Gym fixtures', async () => {
    for (const input of [
      'examples/harbor-job',
      'test/fixtures/harbor/job-2026-01-05',
      'test/fixtures/gym/rollouts.jsonl',
    ]) {
      const scored = join(root, `scored-${++n}`);
      const r = await runCli([
        'score',
        input,
        '--out',
        scored,
        '--run-id',
        'R1',
        '--no-report',
        '--no-progress',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const [memory, duckdb] = await bothEngines(scored);
      expect(duckdb).toBe(memory);
      expect(duckdb).toBe(await readFile(join(scored, 'summary.json'), 'utf8'));
    }
  }, 60_000);

  it('agrees byte for byte on generated bundles with every awkward value, with and without task specs', async () => {
    for (const seed of [1, 2]) {
      const src = join(root, `tricky-${seed}`);
      await writeTrickyBundle(src, seed);
      const [memory, duckdb] = await bothEngines(src);
      expect(duckdb).toBe(memory);
      expect(memory).toMatch(/"value": 1\.0,/); // int and float literals both occur...
      expect(memory).toMatch(/"value": 1,/); // ...and are kept apart
      await rm(join(src, 'tasks.jsonl')); // outputs discovered (spec §7.1)
      const [memory2, duckdb2] = await bothEngines(src);
      expect(duckdb2).toBe(memory2);
    }
  }, 120_000);

  it('without run.json names the run after the first score; a cut-off last line gives exit 1 in both', async () => {
    const src = join(root, 'no-manifest');
    await writeTrickyBundle(src, 4);
    await rm(join(src, 'run.json'));
    const scores = await readFile(join(src, 'scores.jsonl'), 'utf8');
    await writeFile(join(src, 'scores.jsonl'), scores + '{"diagnostics": [], "id": "cut');
    const [memory, duckdb] = await bothEngines(src, [], 1);
    expect(duckdb).toBe(memory);
    const db = join(root, 'no-manifest.duckdb');
    const r = await runCli(['summarize', src, '--engine', 'duckdb', '--db', db, '--no-report']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`stored run agent-eval-20260715093012-5eed0001 in`);
    expect(await queryJson(db, 'SELECT DISTINCT run_id FROM scores')).toEqual([
      { run_id: 'agent-eval-20260715093012-5eed0001' },
    ]);
  }, 60_000);

  it('--db fills the store with either engine, the same rows, and re-running changes no row count', async () => {
    const stores: Record<string, unknown>[][] = [];
    for (const engine of ['memory', 'duckdb']) {
      const db = join(root, `store-${engine}.duckdb`);
      const src = join(root, `store-src-${engine}`);
      await cp(EXAMPLE, src, { recursive: true });
      for (let round = 0; round < 2; round++) {
        const r = await runCli(['summarize', src, '--engine', engine, '--db', db, '--no-report']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('stored run agent-eval-20260715093012-1a2b3c4d in');
        const counts = await queryJson(db, COUNTS);
        // 3 tasks, 8 trials, 8 scores with 11 outputs, 7 tool calls from the ATIF evidence
        expect(counts).toEqual([
          { runs: 1, tasks: 3, trials: 8, scores: 8, outputs: 11, tool_calls: 7, spans: 0 },
        ]);
      }
      // the summary of the stored run is what summary.json says (the query layer reads the same rows)
      const rewards = await queryJson(
        db,
        `SELECT trial_id, num_value FROM score_outputs WHERE output_name = 'reward' ORDER BY score_ordinal`,
      );
      expect(rewards).toEqual([
        { trial_id: 'a1', num_value: 1 },
        { trial_id: 'a2', num_value: 0 },
      ]);
      stores.push(
        await queryJson(
          db,
          `SELECT s.score_ordinal, s.task_id, s.trial_id, s.metric_type, s.status, o.output_name, o.value_type,
             o.num_value, o.label_value FROM scores s LEFT JOIN score_outputs o USING (run_id, score_ordinal)
           ORDER BY ALL`,
        ),
      );
    }
    expect(stores[1]).toEqual(stores[0]);
  }, 60_000);

  it('the temporary DuckDB file and its spill directory are removed', async () => {
    const tmp = join(root, 'tmp');
    await mkdir(tmp);
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
    try {
      const out = join(root, 'tmp-out');
      const r = await runCli(['summarize', SDK_SPARSE, '--out', out, '--engine', 'duckdb', '--no-report']);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
    }
    expect(await readdir(tmp)).toEqual([]);
  }, 60_000);

  it('rejects an unknown engine with exit 2', async () => {
    expect((await runCli(['summarize', EXAMPLE, '--engine', 'sqlite'])).code).toBe(2);
  });
});
