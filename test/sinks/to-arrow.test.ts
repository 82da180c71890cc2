import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_TABLES } from '../../src/sinks/duckdb/store-tables.js';
import { toArrow } from '../../src/sinks/to-arrow.js';
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { queryRows } from './duckdb-test-db.js';
import { runR1 } from './duckdb-sink-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-to-arrow-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('toArrow', () => {
  it('writes one Arrow IPC file per store table with the rows toDuckDB stores', async () => {
    const now = () => new Date('2026-07-15T09:30:12Z');
    const arrow = toArrow(join(dir, 'arrow'), { now });
    const duck = toDuckDB(join(dir, 'runs.duckdb'), { now });
    for (const item of runR1()) {
      await arrow.write(item);
      await duck.write(item);
    }
    await arrow.shutdown();
    await duck.shutdown();
    const db = await openDuckDB(join(dir, 'runs.duckdb'), { readOnly: true });
    try {
      for (const t of STORE_TABLES) {
        const table = tableFromIPC(readFileSync(join(dir, 'arrow', `${t.name}.arrow`)));
        const expected = await queryRows(db.connection, `SELECT * FROM "${t.name}" ORDER BY ${t.order}`);
        expect(table.toArray().map((r) => r.toJSON())).toEqual(expected);
      }
      const scores = tableFromIPC(readFileSync(join(dir, 'arrow', 'score_outputs.arrow')));
      expect(scores.numRows).toBe(9);
    } finally {
      db.close();
    }
  });

  it('writes empty tables (schema only) when nothing was written', async () => {
    const sink = toArrow(join(dir, 'empty'));
    await sink.shutdown();
    const table = tableFromIPC(readFileSync(join(dir, 'empty', 'scores.arrow')));
    expect([table.numRows, table.schema.fields.length]).toEqual([0, 12]);
  });
});
