import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { STORE_TABLES } from '../../src/sinks/duckdb/store-tables.js';
import { queryRows } from '../sinks/duckdb-test-db.js';
import { runCli, writeFixtureStore } from './query-store-fixture.js';

let dir: string;
let db: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-export-'));
  db = join(dir, 'runs.duckdb');
  await writeFixtureStore(db);
  const r = await runCli([
    'export',
    '--db',
    db,
    '--parquet',
    join(dir, 'parquet'),
    '--arrow',
    join(dir, 'arrow'),
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evalstream export', () => {
  it('writes Parquet partitioned by run_id that DuckDB reads back as the same rows', async () => {
    expect(readdirSync(join(dir, 'parquet', 'scores')).sort()).toEqual(['run_id=R1', 'run_id=R2']);
    const store = await openDuckDB(db, { readOnly: true });
    try {
      for (const t of STORE_TABLES) {
        const cols = t.columns.map((c) => `"${c.name}"`).join(', ');
        const path = join(dir, 'parquet', t.name, '**', '*.parquet');
        const back = `SELECT ${cols} FROM read_parquet('${path}', hive_partitioning = true, hive_types = {'run_id': VARCHAR})`;
        const [counts] = await queryRows(
          store.connection,
          `SELECT (SELECT count(*) FROM "${t.name}") AS stored, (SELECT count(*) FROM (${back})) AS exported,
             (SELECT count(*) FROM (SELECT ${cols} FROM "${t.name}" EXCEPT ALL ${back})) AS missing,
             (SELECT count(*) FROM (${back} EXCEPT ALL SELECT ${cols} FROM "${t.name}")) AS extra`,
        );
        expect({ table: t.name, ...counts }).toEqual({
          table: t.name,
          stored: counts?.stored,
          exported: counts?.stored,
          missing: 0n,
          extra: 0n,
        });
        expect(counts?.stored).toBeGreaterThan(0n);
      }
    } finally {
      store.close();
    }
  });

  it('writes Arrow IPC files that apache-arrow reads back as the same rows', async () => {
    const store = await openDuckDB(db, { readOnly: true });
    try {
      for (const t of STORE_TABLES) {
        const file = join(dir, 'arrow', `${t.name}.arrow`);
        expect(existsSync(file)).toBe(true);
        const table = tableFromIPC(readFileSync(file));
        const expected = await queryRows(store.connection, `SELECT * FROM "${t.name}" ORDER BY ${t.order}`);
        expect(table.schema.fields.map((f) => f.name)).toEqual(t.columns.map((c) => c.name));
        expect(table.toArray().map((row) => row.toJSON())).toEqual(expected);
      }
    } finally {
      store.close();
    }
  });

  it('keeps span times exact in both formats', async () => {
    const spans = tableFromIPC(readFileSync(join(dir, 'arrow', 'spans.arrow')));
    expect(String(spans.schema.fields.find((f) => f.name === 'start_time_unix_nano')?.type)).toBe('Uint64');
    expect(spans.get(0)?.toJSON()['start_time_unix_nano']).toBe(1790607510403331845n);
  });

  it('refuses to run without a target', async () => {
    const r = await runCli(['export', '--db', db]);
    expect([r.code, r.stderr]).toEqual([
      2,
      'evalstream: nothing to do: give --parquet DIR and/or --arrow DIR\n',
    ]);
  });
});
