import { Command, Option } from 'commander';
import { stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { BUNDLE_FILES } from '../../bundle/bundle-files.js';
import { bundleReportWriter } from '../../bundle/bundle-report-writer.js';
import { BundleReadError, formatBundleIssue } from '../../bundle/bundle-read-error.js';
import { readBundleJson } from '../../bundle/read-bundle-json.js';
import { rowSchemas } from '../../bundle/row-schemas.js';
import { summarizeBundle, type SummarizeBundleResult } from '../../bundle/summarize-bundle.js';
import type { JsonObject } from '../../model/json-value.js';
import { chooseSummaryEngine } from '../../sql-summary/choose-summary-engine.js';
import { CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';
import { formatAggregateTable } from '../../summary/format-aggregate-table.js';
import { countOf } from '../../util/count-of.js';

interface SummarizeFlags {
  out?: string;
  report: boolean;
  json?: boolean;
  engine: 'auto' | 'memory' | 'duckdb';
  db?: string;
}

/**
 * `evalstream summarize <bundle-dir>`: recomputes `summary.json` of a bundle, in memory or in DuckDB
 * SQL, and writes the bundle in place or to `--out` (options and exit codes: the help text below).
 *
 * @example
 * await main(['summarize', 'examples/sparse-run', '--out', 'runs/sparse-copy']);
 */
export function summarizeCommand(): Command {
  return new Command('summarize')
    .description('recompute summary.json of a run bundle and write the bundle (in place or to --out)')
    .argument('<bundle-dir>', 'run bundle directory (scores.jsonl, tasks.jsonl, trials.jsonl, ...)')
    .option('--out <dir>', 'write the complete bundle here instead of updating it in place')
    .addOption(
      new Option(
        '--engine <engine>',
        'auto: memory for a small run, else duckdb (from the size of scores.jsonl); memory: summary computed in memory; duckdb: in DuckDB SQL, spilling to disk (same summary.json)',
      )
        .choices(['auto', 'memory', 'duckdb'])
        .default('auto'),
    )
    .option('--db <file>', 'also store the run in this DuckDB file (either engine; its rows are replaced)')
    .option('--no-report', 'do not write report.html')
    .option('--json', 'print summary.json instead of the aggregate table')
    .addHelpText(
      'after',
      `
Examples:
  evalstream summarize examples/sparse-run --out runs/sparse
  evalstream summarize runs/r1            # in place (staged, then renamed)
  evalstream summarize runs/r1 --json | jq '.scores.scores[] | {name, mean}'
  evalstream summarize runs/big --engine duckdb          # SQL summary, temp DuckDB file spilling to disk
  evalstream summarize runs/r1 --db runs/all.duckdb      # also fill the store (then: evalstream query)

Exit codes: 0 ok; 1 a file ends in a cut-off line (the complete lines are summarized) or the DuckDB
file cannot be written; 2 bad usage or input.`,
    )
    .action(async (dir: string, flags: SummarizeFlags) => {
      let result: SummarizeBundleResult;
      const scoresBytes = (await stat(join(resolve(dir), BUNDLE_FILES.scores)).catch(() => null))?.size ?? 0;
      const engine = chooseSummaryEngine(flags.engine, scoresBytes);
      try {
        const metadata =
          engine === 'duckdb' && flags.db !== undefined
            ? await readBundleJson(resolve(dir), BUNDLE_FILES.metadata, rowSchemas.metadata)
            : null;
        result = await summarizeBundle(dir, {
          outDir: flags.out ?? null,
          reportWriter: flags.report ? bundleReportWriter : null,
          // DuckDB is loaded only when used (it costs most of the CLI's start-up)
          summaryEngine:
            engine === 'duckdb'
              ? (await import('../../sql-summary/duckdb-bundle-summary-engine.js')).duckdbBundleSummaryEngine(
                  {
                    db: flags.db,
                    metadata: metadata as JsonObject | null,
                  },
                )
              : null,
        });
        // The memory engine leaves the store to a second pass over the written bundle.
        if (flags.db !== undefined && engine === 'memory') {
          const { writeBundleRun } = await import('../../sinks/duckdb/write-bundle-run.js');
          await writeBundleRun(flags.db, result.dir, { runId: result.runId });
        }
      } catch (error) {
        if (error instanceof BundleReadError) throw new CliError(error.message, EXIT_BAD_INPUT);
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'string') throw new CliError((error as Error).message, EXIT_RUN_FAILED);
        if (isDuckDBError(error)) throw new CliError(`DuckDB: ${error.message}`, EXIT_RUN_FAILED);
        throw error;
      }
      for (const warning of result.warnings)
        process.stderr.write(`evalstream: warning: ${formatBundleIssue(warning)}\n`);
      if (flags.json) {
        for (const chunk of result.summaryBytes()) process.stdout.write(chunk);
      } else {
        process.stdout.write(describeResult(result, flags.db ?? null));
      }
      if (result.truncated) {
        throw new CliError(
          'input ends in a cut-off line: the summary covers the complete lines only',
          EXIT_RUN_FAILED,
        );
      }
    });
}

/** Errors thrown by DuckDB (`@duckdb/node-api` rejects with plain `Error`s carrying DuckDB's text). */
function isDuckDBError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    /^(IO|Catalog|Binder|Parser|Conversion|Invalid Input|Constraint|Out of Memory|Transaction|Permission|Serialization|Internal) Error:/.test(
      error.message,
    )
  );
}

function describeResult(result: SummarizeBundleResult, db: string | null): string {
  const s = result.summary;
  const where = result.inPlace ? `${displayPath(result.dir)} (in place)` : displayPath(result.dir);
  const lines = [
    `run ${result.runId}: ${countOf(s.task_count, 'task')}, ${countOf(s.trial_count, 'trial')}, ${countOf(s.score_count, 'score')}` +
      (result.withTaskSpecs ? '' : ' (no tasks.jsonl: summarized without task specs)'),
    '',
    ...formatAggregateTable(s),
    '',
  ];
  if (s.error_count > 0) {
    lines.push(
      `trial errors: ${Object.entries(s.error_trial_ids)
        .map(([t, ids]) => `${t} ×${ids.length}`)
        .join(', ')}`,
    );
  }
  lines.push(
    `wrote ${where}: summary.json${result.unchanged ? ' (unchanged)' : ''}${result.report ? ', report.html' : ''}`,
  );
  if (db !== null) lines.push(`stored run ${result.runId} in ${displayPath(resolve(db))}`);
  return lines.join('\n') + '\n';
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}
