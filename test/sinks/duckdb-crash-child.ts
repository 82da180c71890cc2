// Child process of duckdb-crash.test.ts: writes scored trials into a DuckDB file forever, printing a
// line at every batch boundary, until the parent kills it.
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { score, scored, trial } from './duckdb-sink-fixtures.js';

const [file, commit, ...runs] = process.argv.slice(2);
if (file === undefined || (commit !== 'shutdown' && commit !== 'batch'))
  throw new Error('usage: file commit runs...');
const sink = toDuckDB(file, { commit, batchRows: 1_000_000_000 });
let written = 0;
for (let i = 0; ; i++) {
  for (const run of runs) {
    const id = i === 0 ? 't1' : `c${i}`; // t1 replaces rows the run already has
    await sink.write(scored(trial(id), [score(id, 'judge', [['reward', (i % 10) / 10]], 'completed', run)]));
    written++;
  }
  if (i % 200 === 199) {
    await sink.flush();
    process.stdout.write(`${commit === 'batch' ? 'committed' : 'appended'} ${written}\n`);
  }
}
