import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { summarizeStoreRun } from '../../src/sql-summary/summarize-store-run.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { queryRows } from './duckdb-test-db.js';
import { runR1, sampleEvidence, score, scored, TASK_A, trial } from './duckdb-sink-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-duckdb-sink-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function read<T>(
  file: string,
  fn: (q: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>,
) {
  const db = await openDuckDB(file, { readOnly: true });
  try {
    return await fn((sql) => queryRows(db.connection, sql));
  } finally {
    db.close();
  }
}

const COUNTS = `SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM tasks) AS tasks,
  (SELECT count(*) FROM task_outputs) AS task_outputs, (SELECT count(*) FROM trials) AS trials,
  (SELECT count(*) FROM scores) AS scores, (SELECT count(*) FROM score_outputs) AS score_outputs,
  (SELECT count(*) FROM spans) AS spans, (SELECT count(*) FROM tool_calls) AS tool_calls`;

describe('toDuckDB', () => {
  it('stores one row per score and per output: kinds, values as returned, first-of-name, occurrence', async () => {
    const file = join(dir, 'runs.duckdb');
    const sink = toDuckDB(file, { now: () => new Date('2026-07-15T09:30:12Z') });
    for (const item of runR1()) await sink.write(item);
    await sink.shutdown();
    await read(file, async (q) => {
      expect(await q(COUNTS)).toEqual([
        {
          runs: 1n,
          tasks: 1n,
          task_outputs: 4n,
          trials: 3n,
          scores: 6n,
          score_outputs: 9n,
          spans: 0n,
          tool_calls: 0n,
        },
      ]);
      expect(await q('SELECT run_id, has_task_specs, written_at FROM runs')).toEqual([
        { run_id: 'R1', has_task_specs: true, written_at: '2026-07-15T09:30:12.000Z' },
      ]);
      const outputs = await q(`SELECT trial_id, occurrence, metric_type, output_name, is_first, declared_kind,
          value_type, num_value, label_value, json_value FROM score_outputs ORDER BY score_ordinal, output_ordinal`);
      expect(outputs.map((r) => Object.values(r))).toEqual([
        ['t1', 1, 'judge', 'reward', true, 'continuous', 'number', 0.5, null, null],
        ['t1', 1, 'judge', 'ok', true, 'boolean', 'boolean', 1, null, null],
        ['t1', 1, 'judge', 'note', true, 'label', 'string', null, 'fine', null],
        ['t1', 1, 'judge', 'reward', false, 'continuous', 'number', 9, null, null],
        ['t1', 1, 'usage', 'tokens', true, 'discrete', 'number', 120, null, null],
        ['t2', 1, 'judge', 'reward', true, 'continuous', 'number', NaN, null, null],
        ['t2', 1, 'judge', 'extra', true, null, 'object', null, null, '{"deep":[1,2]}'],
        ['t1', 2, 'judge', 'reward', true, 'continuous', 'number', 1, null, null],
        ['t1', 2, 'usage', 'tokens', true, 'discrete', 'number', 7, null, null],
      ]);
      const scores = await q(
        'SELECT trial_id, metric_type, occurrence, status, is_trial_failure, output_count FROM scores ORDER BY score_ordinal',
      );
      expect(scores.map((r) => Object.values(r))).toEqual([
        ['t1', 'judge', 1, 'completed', false, 4],
        ['t1', 'usage', 1, 'completed', false, 1],
        ['t2', 'judge', 1, 'completed', false, 2],
        ['t2', 'usage', 1, 'failed', false, 0],
        ['t1', 'judge', 2, 'completed', false, 1],
        ['t1', 'usage', 2, 'completed', false, 1],
      ]);
      expect(
        await q(
          "SELECT trial_id, error_type, prompt_tokens, runtime_sec, output_text FROM trials WHERE trial_id = 't2'",
        ),
      ).toEqual([
        {
          trial_id: 't2',
          error_type: 'Timeout',
          prompt_tokens: 80n,
          runtime_sec: 4.5,
          output_text: 'answer of t2',
        },
      ]);
      expect(await q('SELECT view_name, reducer FROM task_views')).toEqual([
        { view_name: 'quality', reducer: 'mean' },
      ]);
    });
  });

  it('keeps 64-bit span times exact and stores tool calls of OTLP and ATIF traces', async () => {
    const file = join(dir, 'traces.duckdb');
    const sink = toDuckDB(file);
    await sink.write(
      scored(
        trial('o1'),
        [score('o1', 'usage', [['tokens', 1]])],
        sampleEvidence('otlp', 'agentevals__adk_py_v2_default_S2.json'),
      ),
    );
    await sink.write(
      scored(
        trial('a1'),
        [score('a1', 'usage', [['tokens', 2]])],
        sampleEvidence('atif', 'nemo-agent-toolkit__exmp02_atif.json'),
      ),
    );
    await sink.shutdown();
    await read(file, async (q) => {
      const spans = await q(
        `SELECT trial_id, span_ordinal, name, kind, start_time_unix_nano, status_code, typeof(start_time_unix_nano) AS t
         FROM spans ORDER BY trial_ordinal, span_ordinal LIMIT 2`,
      );
      expect(spans).toEqual([
        {
          trial_id: 'o1',
          span_ordinal: 0,
          name: 'generate_content gemini-2.5-flash',
          kind: 'internal',
          start_time_unix_nano: 1790607510403331845n,
          status_code: 'unset',
          t: 'UBIGINT',
        },
        {
          trial_id: 'o1',
          span_ordinal: 1,
          name: 'execute_tool get_weather',
          kind: 'internal',
          start_time_unix_nano: 1790607510404121836n,
          status_code: 'unset',
          t: 'UBIGINT',
        },
      ]);
      expect(await q('SELECT count(*) AS n FROM spans')).toEqual([{ n: 10n }]);
      const calls = await q(
        `SELECT trial_id, call_ordinal, call_id, name, is_error, origin, step_id, span_id, arguments FROM tool_calls
         ORDER BY trial_ordinal, call_ordinal`,
      );
      expect(calls.map((c) => [c.trial_id, c.name, c.is_error, c.origin, c.step_id, c.span_id])).toEqual([
        ['o1', 'get_weather', false, 'otlp-span', null, 'b527177ac67f8640'],
        ['o1', 'get_time', false, 'otlp-span', null, '65b1486846d88d42'],
        ['a1', 'calculator__add', false, 'atif-step', 2n, null],
      ]);
      expect(calls[2]).toMatchObject({ call_id: 'call_abc', arguments: '{"a":3,"b":4}' });
    });
  });

  it('writing the same run again replaces its rows instead of duplicating them', async () => {
    const file = join(dir, 'idem.duckdb');
    const write = async (items = runR1(), run?: string) => {
      const sink = toDuckDB(file, run === undefined ? {} : { runId: run });
      for (const item of items) await sink.write(item);
      await sink.shutdown();
    };
    await write();
    const before = await read(file, (q) => q(COUNTS));
    await write(runR1(0.25));
    await write(runR1(0.25));
    expect(await read(file, (q) => q(COUNTS))).toEqual(before);
    expect(
      await read(file, (q) =>
        q(
          "SELECT num_value FROM score_outputs WHERE output_name = 'reward' AND is_first ORDER BY score_ordinal",
        ),
      ),
    ).toEqual([{ num_value: 0.25 }, { num_value: NaN }, { num_value: 1 }]);
    // Re-scoring one metric of one trial replaces only those rows (run + trial + metric type).
    await write([scored(trial('t2'), [score('t2', 'usage', [['tokens', 55]])])]);
    await read(file, async (q) => {
      expect(
        await q(
          "SELECT trial_id, metric_type, status FROM scores WHERE trial_id = 't2' ORDER BY score_ordinal",
        ),
      ).toEqual([
        { trial_id: 't2', metric_type: 'judge', status: 'completed' },
        { trial_id: 't2', metric_type: 'usage', status: 'completed' },
      ]);
      expect(await q('SELECT count(*) AS n FROM tasks')).toEqual([{ n: 1n }]);
    });
    // Another run in the same file is independent.
    await write(runR1(), 'R2');
    await read(file, async (q) => {
      expect(await q('SELECT run_id, count(*) AS n FROM scores GROUP BY run_id ORDER BY run_id')).toEqual([
        { run_id: 'R1', n: 6n },
        { run_id: 'R2', n: 6n },
      ]);
    });
  });

  it('the summary of a sink-written run equals buildSummary of the same scores', async () => {
    const file = join(dir, 'sum.duckdb');
    const items = runR1();
    const sink = toDuckDB(file);
    for (const item of items) await sink.write(item);
    await sink.shutdown();
    const db = await openDuckDB(file, { readOnly: true });
    try {
      const actual = await summarizeStoreRun(db.connection, 'R1');
      const expected = buildSummary({
        scores: items.flatMap((i) => i.scores),
        tasks: [TASK_A],
        trials: items.map((i) => i.item.trial),
      });
      expect(actual).toEqual(expected);
      expect(actual.error_trial_ids).toEqual({ Timeout: ['t2'] });
    } finally {
      db.close();
    }
  });

  it('shutdown is safe twice and without writes (the file is not created); writes after it fail', async () => {
    const file = join(dir, 'never.duckdb');
    const sink = toDuckDB(file);
    await sink.shutdown();
    await sink.shutdown();
    expect(existsSync(file)).toBe(false);
    await expect(sink.write(runR1()[0]!)).rejects.toThrow(/shut down/);
  });

  it('writeRun stores a whole run without task specs (has_task_specs false)', async () => {
    const file = join(dir, 'bundle.duckdb');
    const sink = toDuckDB(file);
    const items = runR1();
    await sink.writeRun({
      runId: 'B',
      tasks: null,
      trials: items.map((i) => i.item.trial),
      scores: items.flatMap((i) => i.scores),
    });
    await sink.shutdown();
    await read(file, async (q) => {
      expect(await q('SELECT run_id, has_task_specs FROM runs')).toEqual([
        { run_id: 'B', has_task_specs: false },
      ]);
      expect(await q("SELECT count(*) AS n FROM scores WHERE run_id = 'B'")).toEqual([{ n: 6n }]);
    });
  });
});
