import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, writeFixtureStore } from './query-store-fixture.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-query-'));
  db = join(dir, 'runs.duckdb');
  await writeFixtureStore(db);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCORES = `SELECT trial_id, metric_type, output_name, num_value, label_value
  FROM score_outputs WHERE run_id = 'R1' AND is_first ORDER BY score_ordinal, output_ordinal`;

describe('evalstream query', () => {
  it('prints a readable table with a row count', async () => {
    const r = await runCli([
      'query',
      '--db',
      db,
      'SELECT run_id, count(*) AS scores FROM scores GROUP BY run_id ORDER BY run_id',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe(
      ['run_id │ scores', '───────┼───────', 'R1     │      6', 'R2     │      1', '(2 rows)', ''].join('\n'),
    );
  });

  it('limits table rows for a terminal and says how many were left out', async () => {
    const r = await runCli(['query', '--db', db, SCORES, '--limit', '2']);
    expect(r.stdout.toString().split('\n')).toEqual([
      'trial_id │ metric_type │ output_name │ num_value │ label_value',
      '─────────┼─────────────┼─────────────┼───────────┼────────────',
      't1       │ judge       │ reward      │       0.5 │ NULL',
      't1       │ judge       │ ok          │         1 │ NULL',
      '(8 rows, first 2 shown; use --limit N to see more)',
      '',
    ]);
  });

  it('prints a table of more rows than Math.max takes as arguments when --limit allows them', async () => {
    const r = await runCli([
      'query',
      '--db',
      db,
      'SELECT range AS n FROM range(200000)',
      '--limit',
      '200000',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.toString().split('\n');
    expect(lines).toHaveLength(2 + 200_000 + 2);
    expect(lines.slice(-3)).toEqual(['199999', '(200000 rows)', '']);
  });

  it('prints JSON for scripts: exact integers, NaN as a string, JSON columns parsed', async () => {
    const r = await runCli([
      'query',
      '--db',
      db,
      '--format',
      'json',
      `SELECT score_ordinal, num_value, json_value FROM score_outputs WHERE run_id = 'R1' AND trial_id = 't2' ORDER BY output_ordinal`,
    ]);
    expect(JSON.parse(r.stdout.toString())).toEqual([
      { score_ordinal: 2, num_value: 'NaN', json_value: null },
      { score_ordinal: 2, num_value: null, json_value: { deep: [1, 2] } },
    ]);
    const spans = await runCli([
      'query',
      '--db',
      db,
      '--format',
      'json',
      'SELECT start_time_unix_nano FROM spans LIMIT 1',
    ]);
    expect(JSON.parse(spans.stdout.toString())).toEqual([{ start_time_unix_nano: '1790607510403331845' }]);
  });

  it('prints CSV (RFC 4180, NULL as empty)', async () => {
    const r = await runCli(['query', '--db', db, '--format', 'csv', `${SCORES} LIMIT 3`]);
    expect(r.stdout.toString()).toBe(
      'trial_id,metric_type,output_name,num_value,label_value\r\nt1,judge,reward,0.5,\r\nt1,judge,ok,1,\r\nt1,judge,note,,fine\r\n',
    );
  });

  it('streams Arrow IPC that apache-arrow reads back', async () => {
    const r = await runCli(['query', '--db', db, '--format', 'arrow', SCORES]);
    const table = tableFromIPC(r.stdout);
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'trial_id:Utf8',
      'metric_type:Utf8',
      'output_name:Utf8',
      'num_value:Float64',
      'label_value:Utf8',
    ]);
    expect(table.numRows).toBe(8);
    expect(table.get(2)?.toJSON()).toEqual({
      trial_id: 't1',
      metric_type: 'judge',
      output_name: 'note',
      num_value: null,
      label_value: 'fine',
    });
    const limited = tableFromIPC(
      (await runCli(['query', '--db', db, '--format', 'arrow', '--limit', '3', SCORES])).stdout,
    );
    expect(limited.numRows).toBe(3);
  });

  it('opens the file read-only unless --write', async () => {
    const insert = "CREATE TABLE notes AS SELECT 'hello' AS note";
    const denied = await runCli(['query', '--db', db, insert]);
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/read-only/);
    const allowed = await runCli(['query', '--db', db, '--write', `${insert}; SELECT note FROM notes`]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.toString()).toContain('hello');
    const dropped = await runCli(['query', '--db', db, '--write', 'DROP TABLE notes; SELECT 1 AS ok']);
    expect(dropped.code).toBe(0);
  });

  it('exits 2 on a missing file or bad SQL, naming the problem', async () => {
    const missing = await runCli(['query', '--db', join(dir, 'nope.duckdb'), 'SELECT 1']);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `evalstream: no such database file: ${join(dir, 'nope.duckdb')}\n`,
    ]);
    const bad = await runCli(['query', '--db', db, 'SELECT FROM WHERE']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Parser Error/);
  });
});
