import { Command } from 'commander';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleReportWriter } from '../../bundle/bundle-report-writer.js';
import { BundleReadError } from '../../bundle/bundle-read-error.js';
import { isDuckDBFile } from '../../compare/is-duckdb-file.js';
import { parseRunRef } from '../../compare/parse-run-ref.js';
import { mergeBundles } from '../../merge/merge-bundles.js';
import { MergeError } from '../../merge/merge-error.js';
import { mergeTableShards } from '../../merge/merge-table-shards.js';
import { formatAggregateTable } from '../../summary/format-aggregate-table.js';
import { CliError, EXIT_BAD_INPUT } from '../cli-error.js';
import { countOf } from '../../util/count-of.js';

interface MergeFlags {
  out: string;
  report: boolean;
}

/**
 * `evalstream merge <shards...> --out DIR`: merges runs scored in shards into one bundle whose
 * `summary.json` is the one-process summary (options and exit codes: the help text below).
 *
 * @example
 * await main(['merge', 'runs/s1', 'runs/s2', 'runs/s3', '--out', 'runs/all']);
 */
export function mergeCommand(): Command {
  return new Command('merge')
    .description(
      'merge runs scored in shards (disjoint trials of one run) into one bundle: bundles, or Parquet exports and DuckDB stores',
    )
    .argument(
      '<shards...>',
      'shard bundles, or Parquet export dirs / DuckDB stores (PATH#RUN_ID picks a run), in the order of the input they were scored from',
    )
    .requiredOption('--out <dir>', 'the merged bundle (must not exist or be empty)')
    .option('--no-report', 'do not write report.html')
    .addHelpText(
      'after',
      `
Examples:
  evalstream score part-1.jsonl --run-id R --out runs/s1   # on three machines
  evalstream score part-2.jsonl --run-id R --out runs/s2
  evalstream score part-3.jsonl --run-id R --out runs/s3
  evalstream merge runs/s1 runs/s2 runs/s3 --out runs/R   # summary.json as if scored at once
  evalstream score part-1.jsonl --run-id R --out runs/s1 --db s1.duckdb && evalstream export --db s1.duckdb --parquet pq/s1
  evalstream merge pq/s1 pq/s2 pq/s3 --out runs/R         # from Parquet exports (DuckDB reads them all at once)
  evalstream merge s1.duckdb#R s2.duckdb#R --out runs/R   # from stores

Exit codes: 0 ok; 2 bad usage or input (a trial in two shards is named).`,
    )
    .action(async (shards: string[], flags: MergeFlags) => {
      const refs = shards.map(parseRunRef);
      const tables = refs.map((r) => isDuckDBFile(r.path) || isParquetExport(r.path));
      let result;
      try {
        const reportWriter = flags.report ? bundleReportWriter : null;
        if (tables.every(Boolean)) {
          result = await mergeTableShards(refs, flags.out, { reportWriter, sources: shards });
        } else if (tables.some(Boolean)) {
          throw new MergeError(
            `give either run bundles or Parquet exports and DuckDB stores, not both (bundles: ${shards.filter((_, i) => !tables[i]).join(', ')})`,
          );
        } else {
          const named = refs.find((r) => r.runId !== null);
          if (named !== undefined)
            throw new MergeError(
              `${named.path}: a run id ('${named.runId}') only chooses a run of a store or Parquet export`,
            );
          result = await mergeBundles(shards, flags.out, { reportWriter });
        }
      } catch (error) {
        if (error instanceof MergeError || error instanceof BundleReadError)
          throw new CliError(error.message, EXIT_BAD_INPUT);
        throw error;
      }
      if (result.runIds.length > 0)
        process.stderr.write(
          `evalstream: warning: the shards have different run ids (${result.runIds.join(', ')}); kept ${result.runId}\n`,
        );
      const s = result.summary.summary;
      const where = relative(process.cwd(), result.dir) || '.';
      process.stdout.write(
        [
          `run ${result.runId}: ${countOf(result.shards, 'shard')} merged, ${countOf(s.task_count, 'task')}, ${countOf(s.trial_count, 'trial')}, ${countOf(s.score_count, 'score')}`,
          '',
          ...formatAggregateTable(s),
          '',
          `wrote ${where.startsWith('..') ? result.dir : where}: summary.json, stats.json${flags.report ? ', report.html' : ''}`,
        ].join('\n') + '\n',
      );
    });
}

/** Whether `dir` is a Parquet export of a store (`export --parquet DIR`): it holds `runs/run_id=<id>/`. */
function isParquetExport(dir: string): boolean {
  const runs = join(dir, 'runs');
  if (!existsSync(runs) || !statSync(runs).isDirectory()) return false;
  return readdirSync(runs).some((entry) => entry.startsWith('run_id='));
}
