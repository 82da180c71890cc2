import { DOUBLE, DuckDBListValue, DuckDBScalarFunction, LIST, type DuckDBConnection } from '@duckdb/node-api';
import { pyFloatSum } from '../pycompat/py-float-sum.js';

/**
 * Registers the SQL functions the summary needs on a connection:
 * `py_sum(DOUBLE[]) → DOUBLE`, Python's `sum()` of the list in list order (CPython ≥ 3.12's
 * compensated summation, bit for bit the same function the in-memory engine uses). DuckDB's own
 * `sum`/`fsum` add in an unspecified parallel order with a different algorithm, so the summary
 * orders each list explicitly (`list(v ORDER BY ...)`) and reduces it with `py_sum`. A list holding
 * a NULL gives NULL. Safe to call more than once per connection.
 *
 * @example
 * registerSummaryFunctions(connection);
 * await connection.run('SELECT py_sum([0.1, 0.1, 0.1])'); // 0.30000000000000004
 */
export function registerSummaryFunctions(connection: DuckDBConnection): void {
  if (registered.has(connection)) return;
  registered.add(connection);
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'py_sum',
      returnType: DOUBLE,
      parameterTypes: [LIST(DOUBLE)],
      mainFunction: (_info, input, output) => {
        const vector = input.getColumnVector(0);
        const rowCount = input.rowCount;
        for (let row = 0; row < rowCount; row++) {
          const item = vector.getItem(row);
          if (!(item instanceof DuckDBListValue)) {
            output.setItem(row, null);
            continue;
          }
          const items = item.items;
          let hasNull = false;
          for (let i = 0; i < items.length; i++) {
            if (typeof items[i] !== 'number') {
              hasNull = true;
              break;
            }
          }
          output.setItem(row, hasNull ? null : pyFloatSum(items as number[]));
        }
        output.flush();
      },
    }),
  );
}

const registered = new WeakSet<DuckDBConnection>();
