import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { TableBuffer } from '../../src/sinks/duckdb/table-buffer.js';

describe('TableBuffer', () => {
  it('appends numbers given for integer and text columns as the columns’ own types', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run('CREATE TABLE t (label VARCHAR, n BIGINT, ns UBIGINT, x DOUBLE, ok BOOLEAN)');
    const buffer = new TableBuffer({
      name: 't',
      order: 'n',
      columns: [
        { name: 'label', type: 'VARCHAR' },
        { name: 'n', type: 'BIGINT' },
        { name: 'ns', type: 'UBIGINT' },
        { name: 'x', type: 'DOUBLE' },
        { name: 'ok', type: 'BOOLEAN' },
      ],
    });
    buffer.push([5, 1, 2, 1.5, true]);
    buffer.push(['b', 2n ** 62n, 2n ** 64n - 1n, 2, null]);
    buffer.push([null, null, null, null, false]);
    expect(await buffer.appendTo(connection)).toBe(3);
    const rows = (await connection.runAndReadAll('SELECT * FROM t ORDER BY n NULLS LAST')).getRows();
    expect(rows).toEqual([
      ['5', 1n, 2n, 1.5, true],
      ['b', 2n ** 62n, 2n ** 64n - 1n, 2, null],
      [null, null, null, null, false],
    ]);
    expect(buffer.rowCount).toBe(0);
    connection.closeSync();
  });
});
