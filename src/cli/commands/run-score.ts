import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Observable } from 'rxjs';
import { BUNDLE_FILES } from '../../bundle/bundle-files.js';
import { BundleReadError } from '../../bundle/bundle-read-error.js';
import { bundleReportWriter } from '../../bundle/bundle-report-writer.js';
import { incompleteBundleDir } from '../../bundle/incomplete-bundle-dir.js';
import { InputDiagnostics } from '../../bundle/input-diagnostics.js';
import { newRunId } from '../../bundle/new-run-id.js';
import { ConfigError } from '../../config/config-error.js';
import type { EvalstreamConfig } from '../../config/evalstream-config.js';
import { findConfigFile, loadConfig } from '../../config/load-config.js';
import { parseConfig } from '../../config/parse-config.js';
import type { ScoredTrial } from '../../model/scored-trial.js';
import type { Summary } from '../../model/summary.js';
import { buildPipeline } from '../../pipeline/build-pipeline.js';
import { PullSource } from '../../pipeline/pull-source.js';
import { type PipelineStats, runPipeline } from '../../pipeline/run-pipeline.js';
import type { Sink } from '../../sinks/sink.js';
import { toRunBundle } from '../../sinks/to-run-bundle.js';
import { type InputFormat, detectFormat } from '../../sources/detect-format.js';
import { InputError } from '../../sources/input-error.js';
import { inputSize } from '../../sources/input-size.js';
import { openInputs } from '../../sources/open-inputs.js';
import type { BundleSummaryEngine } from '../../bundle/bundle-summary-engine.js';
import { chooseScoreSummaryEngine } from '../../sql-summary/choose-summary-engine.js';
import { formatAggregateTable } from '../../summary/format-aggregate-table.js';
import { appendAll } from '../../util/append-all.js';
import { bundleReadExitCode, CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';
import { countOf } from '../../util/count-of.js';

/** The parsed options of `evalstream score`. */
export interface ScoreFlags {
  config?: string;
  out?: string;
  format: 'auto' | InputFormat;
  engine: 'auto' | 'memory' | 'duckdb';
  db?: string;
  report: boolean;
  concurrency?: number;
  runId?: string;
  progress: boolean;
  json?: boolean;
}

/**
 * Runs `evalstream score` once its arguments are parsed (see `scoreCommand`): loaded only when a run
 * starts, so `score --help` does not load the pipeline, DuckDB or the report.
 *
 * @example
 * await runScore(['examples/harbor-job'], { format: 'auto', engine: 'auto', report: true, progress: false });
 */
export async function runScore(inputs: string[], flags: ScoreFlags): Promise<void> {
  for (const input of inputs) {
    await stat(input).catch((error: Error) => {
      throw new CliError(`${input}: cannot read input: ${error.message}`, EXIT_BAD_INPUT);
    });
  }
  const { config, configFile } = await readConfig(flags.config);
  if (flags.concurrency !== undefined) config.scoring.concurrency = flags.concurrency;
  const runId = flags.runId ?? config.runId ?? newRunId();
  const out = flags.out ?? join('runs', runId);

  const inputBytes = inputs.reduce((sum, i) => sum + inputSize(resolve(i)), 0);
  const db = storeFile(flags, out);
  const { engine, overflowMaxScores } = chooseScoreSummaryEngine(flags.engine, db !== null, inputBytes);
  const partialOut = existsSync(join(out, BUNDLE_FILES.run)) ? incompleteBundleDir(out) : out;
  const bundleInputs: string[] = [];
  for (const input of inputs) {
    if ((await stat(input)).isDirectory() && (await detectFormat(resolve(input))) === 'bundle')
      bundleInputs.push(input);
  }
  let summary: Summary | null = null;
  const storeOptions = { runId, metadata: { labels: config.labels } };
  // DuckDB is loaded only when the run uses it (it costs most of the CLI's start-up); with both, the
  // summary is read back from the store, so each row is loaded once
  const duckdbEngine = async (): Promise<BundleSummaryEngine> =>
    (await import('../../sql-summary/duckdb-bundle-summary-engine.js')).duckdbBundleSummaryEngine();
  const sqlEngine = engine === 'duckdb' ? await duckdbEngine() : null;
  const link =
    sqlEngine !== null && db !== null
      ? (await import('../../sql-summary/store-summary-link.js')).storeSummaryLink(
          db,
          storeOptions,
          sqlEngine,
        )
      : null;
  // problems of the input that attach to no trial: warned about as they come, kept in the bundle
  const inputDiagnostics = new InputDiagnostics();
  const sinks: Sink<ScoredTrial>[] = [
    toRunBundle(out, {
      runId,
      inputDiagnostics,
      onSummary: (written) => {
        summary = written;
      },
      labels: config.labels,
      reportWriter: flags.report ? bundleReportWriter : null,
      evidenceRoots: bundleInputs,
      summaryEngine: link?.engine ?? sqlEngine,
      // a run past the bound is summarized by DuckDB from the written files (see docs/sql.md)
      summaryOverflow:
        overflowMaxScores === null ? null : { maxScores: overflowMaxScores, engine: duckdbEngine },
    }),
  ];
  if (link !== null) sinks.push(link.sink);
  else if (db !== null) {
    const { toDuckDB } = await import('../../sinks/to-duckdb.js');
    sinks.push(toDuckDB(db, storeOptions));
  }

  const progress = flags.progress && process.stderr.isTTY === true ? await startProgress(inputBytes) : null;
  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (progress === null) process.stderr.write(`evalstream: warning: ${message}\n`);
    else warnings.push(message);
  };
  const pipeline = buildPipeline({
    source: countReads(
      openInputs(inputs, {
        format: flags.format,
        // a bad payload inside a dump is skipped with a warning; a cut-off file still ends the run
        onIssue: (issue) => {
          warn(issue.message);
          inputDiagnostics.add(issue);
        },
        ...(progress === null ? {} : { onProgress: progress.onInput }),
      }),
      progress,
    ),
    sinks,
    config,
    configFile,
    runId,
    onWarning: warn,
    interrupt: signalError(),
  });
  // a metric that never settles (timeoutMs: null) leaves nothing else keeping Node's event loop alive:
  // without this timer the process would exit 13 with nothing written instead of waiting for a signal
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const result = await runPipeline(pipeline, progress === null ? undefined : progress.onTrial).finally(() =>
    clearInterval(keepAlive),
  );
  progress?.stop();
  for (const message of warnings) process.stderr.write(`evalstream: warning: ${message}\n`);

  const { stats, error } = result;
  if (error !== null) throw toCliError(error, stats, out, partialOut);
  if (stats.trials === 0) throw new CliError('no trials found in the inputs', EXIT_BAD_INPUT);
  if (flags.json === true) {
    process.stdout.write(
      JSON.stringify({
        run_id: runId,
        out,
        db,
        trials: stats.trials,
        scores: stats.scores,
        trial_failures: stats.trialFailures,
        metric_failures: stats.metricFailures,
      }) + '\n',
    );
    return;
  }
  process.stdout.write(describeRun(runId, stats, out, db, summary));
}

/** `source`, counting each value as read when the next stage pulls it (so it stays pull-driven). */
function countReads<T>(source: PullSource<T>, progress: Progress | null): PullSource<T> {
  if (progress === null) return source;
  return new PullSource(async function* () {
    for await (const item of source) {
      progress.onRead.next();
      yield item;
    }
    progress.onRead.complete();
  });
}

/**
 * Errors with "interrupted by SIGINT" (or SIGTERM) when the signal arrives while subscribed: the run
 * then writes the trials scored so far (beside an existing bundle) and ends with exit 1, whatever
 * metric is still pending.
 */
function signalError(): Observable<never> {
  return new Observable<never>((subscriber) => {
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const on = (signal: NodeJS.Signals): void => subscriber.error(new Error(`interrupted by ${signal}`));
    for (const signal of signals) process.once(signal, on);
    return () => {
      for (const signal of signals) process.off(signal, on);
    };
  });
}

/** The store the run goes to: `--db`, else `<out>/evalstream.duckdb` with `--engine duckdb`, else none. */
function storeFile(flags: ScoreFlags, out: string): string | null {
  return flags.db ?? (flags.engine === 'duckdb' ? join(out, 'evalstream.duckdb') : null);
}

async function readConfig(
  file: string | undefined,
): Promise<{ config: EvalstreamConfig; configFile: string }> {
  try {
    const found = file ?? (await findConfigFile(process.cwd()));
    if (found === null) return { config: parseConfig({}, '(defaults)'), configFile: '(defaults)' };
    return { config: await loadConfig(found), configFile: found };
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT_BAD_INPUT);
    throw error;
  }
}

/** `partialOut`: where a failed run's trials went (`out`, or beside the bundle `out` already held). */
function toCliError(error: unknown, stats: PipelineStats, out: string, partialOut: string): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ConfigError) return new CliError(error.message, EXIT_BAD_INPUT);
  const message = error instanceof Error ? error.message : String(error);
  const where =
    stats.trials === 0
      ? ''
      : `\nincomplete: ${partialOut} holds the ${countOf(stats.trials, 'trial')} read before this point` +
        (partialOut === out ? '' : ` (${out} keeps its previous bundle)`);
  // a malformed bundle line is bad input (README), as `summarize` and `report` say of the same bundle
  if (error instanceof BundleReadError) return new CliError(`${message}${where}`, bundleReadExitCode(error));
  if (error instanceof InputError) {
    if (stats.trials === 0) return new CliError(message, EXIT_BAD_INPUT);
    return new CliError(`${message}${where}`, EXIT_RUN_FAILED);
  }
  return new CliError(
    `run failed after ${countOf(stats.trials, 'trial')}: ${message}${where}`,
    EXIT_RUN_FAILED,
  );
}

function describeRun(
  runId: string,
  stats: PipelineStats,
  out: string,
  db: string | null,
  summary: Summary | null,
): string {
  const lines = [
    `run ${runId}: ${countOf(stats.trials, 'trial')}, ${countOf(stats.scores, 'score')}` +
      (stats.trialFailures + stats.metricFailures > 0
        ? ` (${stats.trialFailures} on failed trials, ${countOf(stats.metricFailures, 'metric failure')})`
        : ''),
  ];
  if (summary !== null) {
    lines.push('');
    appendAll(lines, formatAggregateTable(summary));
  }
  lines.push('', `wrote ${out}${db === null ? '' : ` and ${db}`}`, '');
  return lines.join('\n');
}

interface Progress {
  onInput: (p: { file: string; bytesRead?: number; trials?: number }) => void;
  onRead: { next: () => void; complete: () => void };
  onTrial: (stats: PipelineStats) => void;
  stop: () => void;
}

/** A cli-progress bar over the work done (input read, trials scored; see `describeScoreProgress`). */
async function startProgress(totalBytes: number): Promise<Progress> {
  const STEPS = 1000;
  const bytesByFile = new Map<string, number>();
  const started = Date.now();
  const counts = { bytesRead: 0, totalBytes, readDone: false, trialsRead: 0, trialsScored: 0, elapsedSec: 0 };
  const { SingleBar } = (await import('cli-progress')).default;
  const bar = new SingleBar({
    format: ' {bar} {percentage}% | {text}',
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    stream: process.stderr,
  });
  const update = (done = false): void => {
    counts.elapsedSec = (Date.now() - started) / 1000;
    const { fraction, text } = describeScoreProgress(counts);
    bar.update(done ? STEPS : Math.floor(fraction * STEPS), { text });
  };
  bar.start(STEPS, 0, { text: describeScoreProgress(counts).text });
  return {
    onInput: (p) => {
      if (p.bytesRead !== undefined) {
        counts.bytesRead += p.bytesRead - (bytesByFile.get(p.file) ?? 0);
        bytesByFile.set(p.file, p.bytesRead);
        update();
      }
    },
    onRead: {
      next: () => {
        counts.trialsRead += 1;
        update();
      },
      complete: () => {
        counts.readDone = true;
        update();
      },
    },
    onTrial: (stats) => {
      counts.trialsScored = stats.trials;
      update();
    },
    stop: () => {
      update(true);
      bar.stop();
    },
  };
}

/** What `evalstream score` knows about its progress at one moment. */
export interface ScoreProgressCounts {
  /** Input bytes read so far, by the readers that report bytes (OTLP, Gym). */
  bytesRead: number;
  /** Size of all inputs (0 when unknown). */
  totalBytes: number;
  /** Whether the source has emitted its last trial. */
  readDone: boolean;
  trialsRead: number;
  trialsScored: number;
  elapsedSec: number;
}

/** The bar's position (0..1) and the text after it. */
export interface ScoreProgressView {
  fraction: number;
  text: string;
}

/**
 * The progress of `score` as the bar shows it: the share of the work done is the share of the input
 * read times the share of the trials read so far that are scored, so the bar reaches 100 % only when
 * every trial is scored (reading runs ahead of scoring); the text gives both counts.
 *
 * @example
 * describeScoreProgress({ bytesRead: 10, totalBytes: 10, readDone: true, trialsRead: 4, trialsScored: 1, elapsedSec: 2 });
 * // { fraction: 0.25, text: '1/4 trials scored | 0.0/0.0 MiB read | 0.5 trials/s | ETA 6s' }
 */
export function describeScoreProgress(counts: ScoreProgressCounts): ScoreProgressView {
  const { bytesRead, totalBytes, readDone, trialsRead, trialsScored } = counts;
  const elapsed = Math.max(counts.elapsedSec, 0.001);
  const readShare = readDone ? 1 : totalBytes > 0 ? Math.min(1, bytesRead / totalBytes) : 0;
  const scoredShare = trialsRead > 0 ? Math.min(1, trialsScored / trialsRead) : 0;
  const fraction = readShare * scoredShare;
  const eta = fraction > 0 ? `${Math.round((elapsed * (1 - fraction)) / fraction)}s` : '?';
  const read = readDone ? `${trialsRead}` : `${trialsRead}+`;
  const text = [
    `${trialsScored}/${read} trials scored`,
    `${mib(Math.min(bytesRead, totalBytes))}/${mib(totalBytes)} MiB read`,
    `${(trialsScored / elapsed).toFixed(1)} trials/s`,
    `ETA ${eta}`,
  ].join(' | ');
  return { fraction, text };
}

function mib(n: number): string {
  return (n / 1048576).toFixed(1);
}
