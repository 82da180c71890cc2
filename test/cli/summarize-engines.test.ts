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
import { mulberry32 } from '../../bench/mulberry32.js';
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

/**
 * A bundle written as Python's json.dumps would: numeric outputs as int or float literals (`1`,
 * `1.0`, `0.1`, `NaN`, `Infinity`), booleans, labels, nulls, failed scores, duplicate output names,
 * repeated trial ids, views with every reducer.
 */
async function writeTrickyBundle(dir: string, seed: number): Promise<void> {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  await mkdir(dir, { recursive: true });
  const reducers = ['mean', 'weighted_mean', 'any', 'all', 'single'];
  const tasks: string[] = [];
  const scores: string[] = [];
  const trials: string[] = [];
  const runId = 'agent-eval-20260715093012-5eed0001';
  for (let t = 0; t < 6; t++) {
    const reducer = reducers[t % reducers.length] as string;
    const signals =
      reducer === 'single'
        ? '[{"metric": "judge", "output": "reward", "weight": null}]'
        : `[{"metric": "judge", "output": "reward", "weight": ${reducer === 'weighted_mean' ? '2.0' : 'null'}}, {"metric": "unit", "output": "pass_rate", "weight": ${reducer === 'weighted_mean' ? '1.0' : 'null'}}]`;
    tasks.push(
      `{"id": "t${t}", "inputs": {}, "intent": "", "metadata": {}, "metrics": [{"outputs": [{"description": null, "name": "reward", "value_schema": "ContinuousScore"}, {"description": null, "name": "ok", "required": false, "value_schema": "BooleanValue"}, {"description": null, "name": "verdict", "required": false, "value_schema": "Label"}], "type": "judge"}, {"outputs": [{"description": null, "name": "pass_rate", "value_schema": "ContinuousScore"}, {"description": null, "name": "steps", "required": false, "value_schema": "DiscreteScore"}], "type": "unit"}], "reference": {}, "views": {"v_${reducer}": {"reducer": "${reducer}", "signals": ${signals}}}}`,
    );
    const trialCount = 2 + Math.floor(rand() * 4);
    for (let k = 0; k < trialCount; k++) {
      const trialId = k === 3 ? `t${t}-r0` : `t${t}-r${k}`; // a repeated trial id
      const dead = rand() < 0.1;
      const error = dead
        ? `{"message": "boom", "occurred_at": null, "traceback": null, "type": "${pick(['AgentTimeoutError', 'RuntimeError'])}"}`
        : 'null';
      trials.push(
        `{"error": ${error}, "evidence": null, "id": "${trialId}", "measurements": {"cache_creation_tokens": null, "cache_read_tokens": null, "completion_tokens": null, "cost_usd": null, "prompt_tokens": null, "runtime_sec": null, "total_tokens": null}, "metadata": {}, "output": ${dead ? 'null' : '{"metadata": {}, "output_text": "ok", "response": null}'}, "status": "${dead ? 'failed' : 'completed'}", "task_id": "t${t}"}`,
      );
      for (const metric of ['judge', 'unit']) {
        const failed = dead || rand() < 0.08;
        const outputs: string[] = [];
        if (!failed) {
          const num = (): string =>
            pick([
              '1',
              '1.0',
              '0',
              '0.0',
              '0.1',
              '0.30000000000000004',
              '2',
              '1e-07',
              'NaN',
              'Infinity',
              '-Infinity',
              '0.75',
            ]);
          if (metric === 'judge') {
            outputs.push(`{"name": "reward", "value": ${num()}}`);
            if (rand() < 0.7) outputs.push(`{"name": "ok", "value": ${pick(['true', 'false', '1', '0.0'])}}`);
            if (rand() < 0.6)
              outputs.push(`{"name": "verdict", "value": "${pick(['good', 'bad', 'Éa', 'a'])}"}`);
            if (rand() < 0.2) outputs.push(`{"name": "reward", "value": 5.0}`); // a duplicate name: ignored
          } else {
            if (rand() < 0.9) outputs.push(`{"name": "pass_rate", "value": ${pick([num(), 'null', '"x"'])}}`);
            if (rand() < 0.5) outputs.push(`{"name": "steps", "value": ${pick(['3', '4', '7.0', '1e+16'])}}`);
            if (rand() < 0.1) outputs.push(`{"name": "undeclared", "value": 1.5}`);
          }
        }
        const diagnostics = dead
          ? '[{"details": {"trial_status": "failed"}, "message": "trial is failed", "severity": "error", "source": null}]'
          : failed
            ? '[{"details": {}, "message": "metric failed", "severity": "error", "source": "m"}]'
            : '[]';
        scores.push(
          `{"diagnostics": ${diagnostics}, "id": "${runId}:t${t}:${trialId}:${metric}", "metadata": {}, "metric_type": "${metric}", "outputs": [${outputs.join(', ')}], "run_id": "${runId}", "status": "${failed ? 'failed' : pick(['completed', 'partial'])}", "task_id": "t${t}", "trial_id": "${trialId}"}`,
        );
      }
    }
  }
  await writeFile(join(dir, 'tasks.jsonl'), tasks.join('\n') + '\n');
  await writeFile(join(dir, 'trials.jsonl'), trials.join('\n') + '\n');
  await writeFile(join(dir, 'scores.jsonl'), scores.join('\n') + '\n');
  await writeFile(
    join(dir, 'run.json'),
    `{\n  "artifacts": {\n    "scores": "scores.jsonl",\n    "tasks": "tasks.jsonl",\n    "trials": "trials.jsonl"\n  },\n  "run_id": "${runId}"\n}\n`,
  );
}

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
