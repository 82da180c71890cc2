/**
 * `bulkLoadBundle`: scores and trials loaded by DuckDB's JSON reader give exactly the store rows the
 * validating JavaScript path (`writeRun` over parsed rows) gives — awkward numbers (`1` vs `1.0`,
 * `1E2`, `-0.0`, `1e400`, 20-digit ints, NaN/±Infinity), labels, booleans, nulls, arrays/objects,
 * duplicate output names, missing optional outputs, failed scores and trials, repeated trial ids,
 * with and without task specs — and the summary through it is byte-identical to the in-memory
 * engine's. Bundles it cannot read exactly are refused (null), leaving the store unchanged.
 */
import { appendFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readScoreRows } from '../../src/bundle/read-score-rows.js';
import { readTaskSpecs } from '../../src/bundle/read-task-specs.js';
import { readTrialRows } from '../../src/bundle/read-trial-rows.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { bulkLoadBundle } from '../../src/sinks/duckdb/bulk-load-bundle.js';
import { writeRun } from '../../src/sinks/duckdb/write-run.js';
import type { StoreTrial } from '../../src/sinks/duckdb/store-rows.js';
import { duckdbBundleSummaryEngine } from '../../src/sql-summary/duckdb-bundle-summary-engine.js';
import { writeTrickyBundle } from '../sql-summary/write-tricky-bundle.js';
import { queryRows, withTestDb } from './duckdb-test-db.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-bulk-load-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const SCORES = `SELECT score_ordinal, score_id, task_id, trial_id, metric_type, occurrence, status,
  is_trial_failure, output_count FROM scores WHERE run_id = 'R' ORDER BY score_ordinal`;
const OUTPUTS = `SELECT score_ordinal, task_id, trial_id, occurrence, metric_type, output_ordinal, output_name,
  is_first, declared_kind, value_type, CAST(num_value AS VARCHAR) AS num, label_value, json_value::VARCHAR AS json
  FROM score_outputs WHERE run_id = 'R' ORDER BY score_ordinal, output_ordinal`;
const TRIALS = `SELECT trial_ordinal, trial_id, task_id, status, error_type FROM trials WHERE run_id = 'R'
  ORDER BY trial_ordinal`;

/** The store rows of the bundle through the JavaScript readers and `writeRun`. */
async function viaJavaScript(dir: string): Promise<Record<string, unknown>[][]> {
  const ignore = (): void => undefined;
  const scores: ScoreRecord[] = [];
  for await (const b of readScoreRows(dir, { onTruncatedLine: ignore, register: false }))
    scores.push(...b.rows);
  const trials: StoreTrial[] = [];
  for await (const b of readTrialRows(dir, { onTruncatedLine: ignore, resolveRefs: false, register: false }))
    trials.push(...b.rows);
  return withTestDb(async (connection) => {
    await writeRun(connection, { runId: 'R', tasks: await readTaskSpecs(dir), trials, scores });
    return tableRows(connection);
  });
}

/** The store rows of the bundle through `bulkLoadBundle` (run id `R`, JSON columns kept). */
async function viaBulkLoad(dir: string): Promise<{
  loaded: Awaited<ReturnType<typeof bulkLoadBundle>>;
  rows: Record<string, unknown>[][];
}> {
  return withTestDb(async (connection) => {
    const loaded = await bulkLoadBundle(connection, {
      scoresFile: join(dir, 'scores.jsonl'),
      trialsFile: join(dir, 'trials.jsonl'),
      runId: 'R',
      tasks: await readTaskSpecs(dir),
      keepJson: true,
    });
    return { loaded, rows: await tableRows(connection) };
  });
}

async function tableRows(connection: Parameters<typeof queryRows>[0]): Promise<Record<string, unknown>[][]> {
  const outputs = await queryRows(connection, OUTPUTS);
  // JSON text may differ in spacing and float spelling: compare the parsed values
  for (const o of outputs) if (typeof o['json'] === 'string') o['json'] = JSON.parse(o['json']) as unknown;
  return [await queryRows(connection, SCORES), outputs, await queryRows(connection, TRIALS)];
}

describe('bulkLoadBundle', () => {
  it('stores exactly the rows of the JavaScript path, with and without task specs', async () => {
    for (const seed of [1, 2, 3, 4]) {
      for (const specs of [true, false]) {
        const dir = join(root, `tricky-${seed}-${specs}`);
        await writeTrickyBundle(dir, seed);
        if (!specs) await unlink(join(dir, 'tasks.jsonl'));
        const expected = await viaJavaScript(dir);
        const { loaded, rows } = await viaBulkLoad(dir);
        expect(loaded).not.toBeNull();
        expect(loaded?.scores).toBe(expected[0]?.length);
        expect(loaded?.outputs).toBe(expected[1]?.length);
        expect(rows).toEqual(expected);
      }
    }
  }, 60_000);

  it('numbers occurrences without a window when no (task, trial, metric) repeats: the same rows', async () => {
    for (const seed of [1, 2]) {
      const dir = join(root, `unique-${seed}`);
      await writeTrickyBundle(dir, seed);
      // keep the first score of every (task, trial, metric)
      const seen = new Set<string>();
      const lines = (await readFile(join(dir, 'scores.jsonl'), 'utf8')).split('\n').filter((line) => {
        if (line === '') return false;
        const field = (name: string): string | undefined =>
          new RegExp(`"${name}": "([^"]*)"`).exec(line)?.[1];
        const key = `${field('task_id')}\0${field('trial_id')}\0${field('metric_type')}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      await writeFile(join(dir, 'scores.jsonl'), lines.map((line) => `${line}\n`).join(''));
      const expected = await viaJavaScript(dir);
      const { loaded, rows } = await viaBulkLoad(dir);
      expect(loaded?.scores).toBe(lines.length);
      expect(rows).toEqual(expected);
      expect(expected[0]?.every((row) => row['occurrence'] === 1)).toBe(true);
    }
  }, 60_000);

  it('gives summary.json bytes identical to the in-memory engine (float literals kept)', async () => {
    for (const seed of [5, 6, 7]) {
      const dir = join(root, `summary-${seed}`);
      await writeTrickyBundle(dir, seed);
      const memory = join(root, `summary-${seed}-memory`);
      const sql = join(root, `summary-${seed}-sql`);
      await summarizeBundle(dir, { outDir: memory });
      await summarizeBundle(dir, { outDir: sql, summaryEngine: duckdbBundleSummaryEngine() });
      const text = await readFile(join(sql, 'summary.json'), 'utf8');
      expect(text).toBe(await readFile(join(memory, 'summary.json'), 'utf8'));
      expect(text).toMatch(/": 1\.0[,}\]]/);
    }
  }, 60_000);

  it('refuses a cut-off last line, a malformed line, an unknown status or a nameless output', async () => {
    const base = join(root, 'base');
    await writeTrickyBundle(base, 9);
    const good = await readFile(join(base, 'scores.jsonl'), 'utf8');
    const line = good.slice(0, good.indexOf('\n') + 1);
    const cases: [string, string][] = [
      ['cut', line.slice(0, 40)],
      ['malformed', '{"id": \n'],
      ['status', line.replace('"status": "', '"status": "done-')],
      ['nameless', line.replace(/\{"name": "[^"]+", /, '{')],
    ];
    for (const [name, tail] of cases) {
      const dir = join(root, `bad-${name}`);
      await writeTrickyBundle(dir, 9);
      await appendFile(join(dir, 'scores.jsonl'), tail);
      await withTestDb(async (connection) => {
        const before = await queryRows(connection, 'SELECT count(*) AS n FROM scores');
        const loaded = await bulkLoadBundle(connection, {
          scoresFile: join(dir, 'scores.jsonl'),
          trialsFile: join(dir, 'trials.jsonl'),
          runId: null,
          tasks: await readTaskSpecs(dir),
          keepJson: false,
        });
        expect(loaded, name).toBeNull();
        expect(await queryRows(connection, 'SELECT count(*) AS n FROM scores')).toEqual(before);
      });
    }
    // a trial without an id is refused too
    const dir = join(root, 'bad-trial');
    await writeTrickyBundle(dir, 9);
    await writeFile(join(dir, 'trials.jsonl'), '{"status": "failed", "task_id": "t0"}\n');
    await withTestDb(async (connection) => {
      const input = {
        scoresFile: join(dir, 'scores.jsonl'),
        trialsFile: join(dir, 'trials.jsonl'),
        runId: null,
        tasks: null,
        keepJson: false,
      };
      expect(await bulkLoadBundle(connection, input)).toBeNull();
    });
  }, 60_000);
});
