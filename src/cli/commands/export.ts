import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { exportArrow } from '../../sinks/duckdb/export-arrow.js';
import { exportParquet } from '../../sinks/duckdb/export-parquet.js';
import { openDuckDB, type DuckDBSession } from '../../sinks/duckdb/open-duckdb.js';
import { CliError } from '../cli-error.js';

interface ExportFlags {
  db: string;
  parquet?: string;
  arrow?: string;
}

/**
 * `evalstream export --db FILE`: every store table to Parquet (partitioned by run) and/or Arrow IPC
 * (options and exit codes: the help text below).
 *
 * @example
 * await main(['export', '--db', 'runs.duckdb', '--parquet', 'out/parquet', '--arrow', 'out/arrow']);
 */
export function exportCommand(): Command {
  return new Command('export')
    .description('export every table of an evalstream DuckDB store to Parquet (by run) and/or Arrow IPC')
    .requiredOption('--db <file>', 'DuckDB file written by evalstream')
    .option('--parquet <dir>', 'write DIR/<table>/run_id=<id>/*.parquet (DuckDB COPY)')
    .option('--arrow <dir>', 'write DIR/<table>.arrow (Arrow IPC file format)')
    .addHelpText(
      'after',
      `
Examples:
  evalstream export --db runs/all.duckdb --parquet out/parquet
  evalstream export --db runs/all.duckdb --arrow out/arrow

Exit codes: 0 ok; 2 bad usage or unreadable store.`,
    )
    .action(async (flags: ExportFlags) => {
      if (flags.parquet === undefined && flags.arrow === undefined) {
        throw new CliError('nothing to do: give --parquet DIR and/or --arrow DIR');
      }
      if (!existsSync(flags.db)) throw new CliError(`no such database file: ${flags.db}`);
      let db: DuckDBSession;
      try {
        db = await openDuckDB(flags.db, { readOnly: true });
      } catch (error) {
        throw new CliError(`cannot open ${flags.db}: ${(error as Error).message}`);
      }
      try {
        const report = (format: string, dir: string, counts: Record<string, number>) => {
          for (const [table, n] of Object.entries(counts)) {
            process.stdout.write(`${format}\t${table}\t${n} rows\t${dir}\n`);
          }
        };
        if (flags.parquet !== undefined)
          report('parquet', flags.parquet, await exportParquet(db.connection, flags.parquet));
        if (flags.arrow !== undefined)
          report('arrow', flags.arrow, await exportArrow(db.connection, flags.arrow));
      } finally {
        db.close();
      }
    });
}
