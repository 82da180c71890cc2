import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { bundleReportWriter } from '../../bundle/bundle-report-writer.js';
import { newRunId } from '../../bundle/new-run-id.js';
import { ConfigError } from '../../config/config-error.js';
import { loadConfig } from '../../config/load-config.js';
import { parseConfig } from '../../config/parse-config.js';
import type { ScoredTrial } from '../../model/scored-trial.js';
import { createTrialPlanner } from '../../pipeline/create-trial-planner.js';
import { EvaluationResultEmitter } from '../../serve/evaluation-result-emitter.js';
import { LiveDuckDBStore } from '../../serve/live-duckdb-store.js';
import { LiveEngine } from '../../serve/live-engine.js';
import { decodingBodyHandler } from '../../serve/decoding-body-handler.js';
import { BodyBudget } from '../../serve/body-budget.js';
import { LateLive } from '../../serve/late-live.js';
import { OtlpGrpcServer } from '../../serve/otlp-grpc-server.js';
import { OtlpHttpServer } from '../../serve/otlp-http-server.js';
import type { Sink } from '../../sinks/sink.js';
import { toRunBundle } from '../../sinks/to-run-bundle.js';
import { CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';
import { intAtLeast } from '../int-at-least.js';
import { parseHostPort } from '../parse-host-port.js';
import { countOf } from '../../util/count-of.js';

const count = intAtLeast(0);

function positiveNumber(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new CliError(`${flag} expects a positive number, got '${value}'`);
    return n;
  };
}

type Parse = (value: string) => number;

/** The options of `serve`, in help order: flags, description, parser of a numeric value, default. */
const OPTIONS: readonly (readonly [string, string, (Parse | undefined)?, unknown?])[] = [
  ['--http <host:port>', 'OTLP/HTTP receiver and live API address', undefined, '127.0.0.1:4318'],
  ['--grpc <host:port>', 'OTLP/gRPC receiver address', undefined, '127.0.0.1:4317'],
  ['--no-grpc', 'do not start the gRPC receiver'],
  ['--config <file>', 'evalstream config (metrics per task, views)'],
  ['--out <dir>', 'write the run bundle here at shutdown'],
  ['--db <file>', 'store scores, spans and tool calls in this DuckDB file as trials are scored'],
  ['--token-file <file>', 'require this bearer token (file content, trimmed) on every request'],
  ['--run-id <id>', 'run id (default agent-eval-<time>-<hex>)'],
  ['--settle-ms <ms>', 'quiet time after a trial’s end span before scoring', count, 2000],
  ['--idle-timeout <ms>', 'score a trial without an end span after this quiet time', count, 300_000],
  ['--end-marker <attribute>', 'an attribute marking a trial’s last span'],
  ['--max-body-bytes <n>', 'largest OTLP/HTTP request body on the wire', count, 16 * 1024 * 1024],
  [
    '--max-decompressed-bytes <n>',
    'largest OTLP/HTTP body after gzip, and largest OTLP/gRPC message',
    count,
    64 * 1024 * 1024,
  ],
  [
    '--max-body-memory <n>',
    'bytes of request bodies all requests together may hold while they are read and inflated (past it: 429 / RESOURCE_EXHAUSTED)',
    count,
    128 * 1024 * 1024,
  ],
  [
    '--request-timeout-ms <ms>',
    'longest time a request may take to arrive in full (past it: 408, connection closed)',
    count,
    30_000,
  ],
  ['--max-queued-spans <n>', 'spans accepted but not yet assembled before throttling', count, 200_000],
  ['--max-pending-trials <n>', 'trials waiting to be scored before throttling', count, 1000],
  [
    '--saturation-wait-ms <ms>',
    'how long an export that finds the queues full waits for room before 429 / RESOURCE_EXHAUSTED (OTLP/HTTP: its body unread; 0 = answer at once)',
    count,
    1000,
  ],
  ['--concurrency <n>', 'trials scored at once', count, 8],
  [
    '--retain-ms <ms>',
    'keep a scored trial’s spans this long for late spans (then later spans are refused)',
    count,
    300_000,
  ],
  [
    '--retain-max-trials <n>',
    'retain at most this many scored trials for late spans; past it the oldest-scored are sealed early (bounds memory at high rates)',
    count,
    20_000,
  ],
  [
    '--flush-ms <ms>',
    'with --db: commit scored trials to the store at least this often (one transaction per batch)',
    count,
    250,
  ],
  ['--trial-key <attr...>', 'attributes naming the trial', undefined, ['gen_ai.conversation.id']],
  ['--task-key <attr...>', 'attributes naming the task', undefined, ['nemo.test_case.name']],
  [
    '--stop-when-width <w>',
    '/v1/summary says when every bounded output’s anytime-valid confidence sequence is narrower than this',
    positiveNumber('--stop-when-width'),
  ],
  [
    '--emit-otlp <url>',
    'send every score to this OTLP/HTTP logs endpoint (e.g. http://127.0.0.1:4318/v1/logs) as gen_ai.evaluation.result log records',
  ],
  ['--no-report', 'do not write report.html into the bundle'],
];

interface ServeOptions {
  http: string;
  grpc: string | false;
  config?: string;
  out?: string;
  db?: string;
  tokenFile?: string;
  runId?: string;
  settleMs: number;
  idleTimeout: number;
  endMarker?: string;
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  maxBodyMemory: number;
  requestTimeoutMs: number;
  maxQueuedSpans: number;
  maxPendingTrials: number;
  saturationWaitMs: number;
  concurrency: number;
  retainMs: number;
  retainMaxTrials: number;
  flushMs: number;
  trialKey: string[];
  taskKey: string[];
  report: boolean;
  stopWhenWidth?: number;
  emitOtlp?: string;
}

/**
 * `evalstream serve`: receives OTLP traces over HTTP and gRPC, scores each trial when it completes,
 * serves live aggregates, and on SIGINT/SIGTERM writes the run bundle and closes the store.
 *
 * @example
 * evalstream serve --http 127.0.0.1:4318 --grpc 127.0.0.1:4317 --out runs/live --db runs/live.duckdb
 */
export function serveCommand(): Command {
  const command = new Command('serve').description(
    'receive OTLP traces (HTTP + gRPC), score trials as they finish, keep live aggregates',
  );
  for (const [flags, description, parse, fallback] of OPTIONS) {
    if (parse === undefined) command.option(flags, description, fallback as string | string[] | undefined);
    else command.option(flags, description, parse, fallback as number);
  }
  return command
    .addHelpText(
      'after',
      '\nExample:\n  evalstream serve --http 127.0.0.1:4318 --grpc 127.0.0.1:4317 --out runs/live --db runs/live.duckdb\n' +
        '  # then point an OTLP exporter at http://127.0.0.1:4318/v1/traces and open http://127.0.0.1:4318/\n',
    )
    .action(runServe);
}

async function runServe(options: ServeOptions): Promise<void> {
  const http = parseHostPort(options.http, '--http');
  const grpcAddress = options.grpc === false ? null : parseHostPort(options.grpc, '--grpc');
  const token = options.tokenFile === undefined ? null : (await readFile(options.tokenFile, 'utf8')).trim();
  if (token === '') throw new CliError(`--token-file ${options.tokenFile} is empty`);
  if (options.maxBodyMemory < options.maxDecompressedBytes)
    throw new CliError(
      `--max-body-memory (${options.maxBodyMemory}) must be at least --max-decompressed-bytes (${options.maxDecompressedBytes})`,
    );
  const budget = new BodyBudget(options.maxBodyMemory);
  // the ports first: a busy port fails before the store or the bundle is touched
  const late = new LateLive();
  const httpServer = new OtlpHttpServer(
    {
      ...http,
      token,
      saturationWaitMs: options.saturationWaitMs,
      maxBodyBytes: options.maxBodyBytes,
      maxDecompressedBytes: options.maxDecompressedBytes,
      budget,
      requestTimeoutMs: options.requestTimeoutMs,
    },
    late,
    late,
  );
  const grpcServer =
    grpcAddress === null
      ? null
      : new OtlpGrpcServer(
          {
            ...grpcAddress,
            token,
            maxMessageBytes: options.maxDecompressedBytes,
            saturationWaitMs: options.saturationWaitMs,
            budget,
          },
          late,
        );
  const bound = await listenOrExit(() => httpServer.start(), `--http ${options.http}`);
  let grpcPort: number | null = null;
  try {
    if (grpcServer !== null)
      grpcPort = await listenOrExit(() => grpcServer.start(), `--grpc ${options.grpc}`);
  } catch (error) {
    await httpServer.shutdown();
    throw error;
  }
  let run: Awaited<ReturnType<typeof openLiveRun>>;
  try {
    run = await openLiveRun(options);
  } catch (error) {
    await grpcServer?.shutdown();
    await httpServer.shutdown();
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT_BAD_INPUT);
    throw error;
  }
  run.engine.start();
  late.set(decodingBodyHandler(run.engine), run.engine);
  process.stderr.write(
    `evalstream serve: run ${run.runId}; OTLP/HTTP + live API on http://${bound.address}:${bound.port}` +
      (grpcPort === null ? '' : `; OTLP/gRPC on ${grpcAddress!.host}:${grpcPort}`) +
      '\n',
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`evalstream serve: second ${signal}, exiting now\n`);
        process.exit(130);
      }
      stopping = true;
      process.stderr.write(`evalstream serve: ${signal}: finishing (send again to exit at once)\n`);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  httpServer.stopAccepting();
  grpcServer?.stopAccepting();
  const end = await run.finish();
  await grpcServer?.shutdown();
  await httpServer.shutdown();
  process.stderr.write(
    `evalstream serve: ${countOf(end.trials, 'trial')} scored` +
      (options.out === undefined ? '' : `; bundle in ${options.out}`) +
      '\n',
  );
  if (end.problem !== null)
    throw new CliError(`serve: the run is incomplete: ${end.problem}`, EXIT_RUN_FAILED);
}

/** Binds a receiver's port; a port that cannot be bound is bad input (exit 2), said in one line. */
async function listenOrExit<T>(listen: () => Promise<T>, flag: string): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const details = (error as Error).message.split('\n')[0];
    if (code === 'EADDRINUSE' || /address already in use|No address added/i.test(details ?? ''))
      throw new CliError(`${flag}: the address is in use (another process listens there)`);
    throw new CliError(`${flag}: cannot listen there: ${details}`);
  }
}

/**
 * Sets up the live run: loads the config, opens the DuckDB store (`--db`) and the `--emit-otlp`
 * sink, and makes the engine (not yet started). `finish`, called after the receivers stopped, scores
 * what is left (open trials flushed as incomplete), closes the sinks and writes the run bundle to
 * `--out`, each as far as it can (a failed store does not stop the bundle), and says how many trials
 * were scored and what went wrong, if anything.
 */
async function openLiveRun(options: ServeOptions) {
  const warn = (m: string): void => void process.stderr.write(`evalstream: warning: ${m}\n`);
  const config =
    options.config === undefined ? parseConfig({}, 'defaults') : await loadConfig(options.config);
  const runId = options.runId ?? config.runId ?? newRunId(new Date());
  const planner = createTrialPlanner({
    config,
    ...(options.config === undefined ? {} : { configFile: options.config }),
    onWarning: warn,
  });
  const sinks: Sink<ScoredTrial>[] = [];
  const store =
    options.db === undefined
      ? null
      : new LiveDuckDBStore(options.db, {
          runId,
          flushMs: Math.max(1, options.flushMs),
          maxBufferedSpans: options.maxQueuedSpans,
          threads: 1,
        });
  if (store !== null) sinks.push(store);
  if (options.emitOtlp !== undefined)
    sinks.push(
      new EvaluationResultEmitter(options.emitOtlp, {
        runId,
        // a send fails in the background: reported at once, not at the next trial's write
        onFailure: (error) => engine.sinkFailed(error),
      }),
    );
  let engine: LiveEngine;
  try {
    engine = new LiveEngine(
      {
        runId,
        completion: {
          settleMs: options.settleMs,
          idleTimeoutMs: options.idleTimeout,
          endMarkerAttribute: options.endMarker ?? null,
        },
        trialKeys: options.trialKey,
        taskKeys: options.taskKey,
        maxQueuedSpans: options.maxQueuedSpans,
        maxPendingTrials: options.maxPendingTrials,
        concurrency: options.concurrency,
        metricTimeoutMs: config.scoring.timeoutMs ?? 0,
        retryAfterSec: 1,
        retainMs: options.retainMs,
        retainMaxTrials: options.retainMaxTrials,
        tickMs: Math.max(10, Math.min(250, Math.floor(options.settleMs / 4) || 10)),
        onProblem: (m) => process.stderr.write(`evalstream serve: error: ${m}\n`),
        stopWhenWidth: options.stopWhenWidth ?? null,
      },
      planner,
      sinks,
    );
  } catch (error) {
    // the kept trials' spill file cannot be made (see SpillFile): nothing is open or accepted yet
    throw new CliError(`serve: ${(error as Error).message}`, EXIT_RUN_FAILED);
  }
  await store?.open();
  return {
    runId,
    engine,
    async finish(): Promise<{ trials: number; problem: string | null }> {
      const trials = await engine.shutdown();
      const problems: string[] = [];
      for (const sink of sinks) {
        try {
          await sink.shutdown();
        } catch (error) {
          problems.push(`a sink could not be closed cleanly: ${(error as Error).message}`);
        }
      }
      if (options.out !== undefined) {
        const bundle = toRunBundle(options.out, {
          runId,
          labels: config.labels,
          reportWriter: options.report ? bundleReportWriter : null,
        });
        for (const trial of engine.eachFinalTrial()) await bundle.write(trial);
        await bundle.shutdown();
      }
      engine.close();
      const problem = [engine.problem(), ...problems].filter((p) => p !== null).join('; ');
      return { trials, problem: problem === '' ? null : problem };
    },
  };
}
