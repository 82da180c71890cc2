import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { intAtLeast } from '../int-at-least.js';
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import { formatResultRows } from '../../sinks/duckdb/format-result-rows.js';
import { openDuckDB, type DuckDBSession } from '../../sinks/duckdb/open-duckdb.js';
import { writeArrowIpc } from '../../sinks/duckdb/write-arrow-ipc.js';
import { CliError } from '../cli-error.js';

interface QueryFlags {
  db: string;
  format: 'table' | 'json' | 'csv' | 'arrow';
  write?: boolean;
  limit?: number;
}

/** Rows a terminal table shows when `--limit` is not given. */
const TABLE_ROWS = 100;

/**
 * Run on the connection before the user's SQL, with or without `--write`: no file outside the store
 * (`read_csv`, `read_text`, `glob`, `COPY … TO`, `ATTACH` of a file, `EXPORT DATABASE`), no extension
 * installed or loaded from disk or the network, and the configuration locked so the SQL cannot undo it.
 */
const SANDBOX = [
  'SET enable_external_access = false',
  'SET autoinstall_known_extensions = false',
  'SET autoload_known_extensions = false',
  'SET allow_community_extensions = false',
  'SET lock_configuration = true',
].join('; ');

/**
 * `evalstream query --db FILE "SQL"`: runs SQL over a store inside `SANDBOX` (no other file, no
 * extension) and prints the rows of the last statement (options and exit codes: the help text below).
 *
 * @example
 * await main(['query', '--db', 'runs.duckdb', 'SELECT run_id, count(*) FROM scores GROUP BY ALL']);
 */
export function queryCommand(): Command {
  return new Command('query')
    .description('run SQL over an evalstream DuckDB store (read-only unless --write)')
    .argument('<sql>', 'SQL to run; the rows of the last statement are printed')
    .requiredOption('--db <file>', 'DuckDB file written by evalstream')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['table', 'json', 'csv', 'arrow'])
        .default('table'),
    )
    .option(
      '--write',
      'open the store read-write (INSERT/UPDATE/DELETE/CREATE/DROP in it; still no other file, no extension)',
    )
    .option('--limit <n>', 'print at most N rows', intAtLeast(0))
    .addHelpText(
      'after',
      `
Examples:
  evalstream query --db runs/all.duckdb "select metric_type, output_name, avg(num_value) from score_outputs group by all"
  evalstream query --db runs/all.duckdb --format csv "select * from tool_calls where is_error" > errors.csv
  evalstream query --db runs/all.duckdb --format arrow "select * from scores" | python -c 'import pyarrow.ipc,sys; print(pyarrow.ipc.open_stream(sys.stdin.buffer).read_all())'

The SQL sees only the store: reading or writing other files (read_csv, glob, COPY … TO, ATTACH),
installing or loading extensions and changing settings are refused, with or without --write.

Exit codes: 0 ok; 2 bad usage, unreadable store or SQL error.`,
    )
    .action(async (sql: string, flags: QueryFlags) => {
      if (flags.write !== true && !existsSync(flags.db))
        throw new CliError(`no such database file: ${flags.db}`);
      let db: DuckDBSession;
      try {
        db = await openDuckDB(flags.db, { readOnly: flags.write !== true });
      } catch (error) {
        throw new CliError(`cannot open ${flags.db}: ${(error as Error).message}`);
      }
      try {
        await db.connection.run(SANDBOX);
        const result = await runLast(db.connection, sql);
        if (flags.format === 'arrow') {
          await writeArrowIpc(result, process.stdout, 'stream', flags.limit ?? Infinity);
        } else {
          const limit = flags.limit ?? (flags.format === 'table' ? TABLE_ROWS : undefined);
          await formatResultRows(result, process.stdout, flags.format, { limit });
        }
      } finally {
        db.close();
      }
    });
}

/** Runs every statement but the last, and streams the last one. */
async function runLast(connection: DuckDBConnection, sql: string): Promise<DuckDBResult> {
  try {
    const statements = await connection.extractStatements(sql);
    if (statements.count === 0) throw new CliError('no SQL statement given');
    for (let i = 0; i < statements.count - 1; i++) await (await statements.prepare(i)).run();
    return await (await statements.prepare(statements.count - 1)).stream();
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message);
  }
}
