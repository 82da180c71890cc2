import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.js';
import { decodingBodyHandler } from '../../serve/decoding-body-handler.js';
import { BodyArena } from '../../serve/body-arena.js';
import { BodyBudget } from '../../serve/body-budget.js';
import { LateLive } from '../../serve/late-live.js';
import { openLiveRun, type LiveRunEnd, type LiveRunOptions } from '../../serve/open-live-run.js';
import { OtlpGrpcServer } from '../../serve/otlp-grpc-server.js';
import { OtlpHttpServer } from '../../serve/otlp-http-server.js';
import type { BodyHandler, LiveReadApi } from '../../serve/serve-types.js';
import { CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';
import { intAtLeast } from '../int-at-least.js';
import { parseHostPort } from '../parse-host-port.js';

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
  const runOptions: LiveRunOptions = {
    runId: options.runId ?? null,
    configFile: options.config ?? null,
    out: options.out ?? null,
    db: options.db ?? null,
    settleMs: options.settleMs,
    idleTimeoutMs: options.idleTimeout,
    endMarker: options.endMarker ?? null,
    maxQueuedSpans: options.maxQueuedSpans,
    maxPendingTrials: options.maxPendingTrials,
    concurrency: options.concurrency,
    retainMs: options.retainMs,
    retainMaxTrials: options.retainMaxTrials,
    flushMs: options.flushMs,
    trialKeys: options.trialKey,
    taskKeys: options.taskKey,
    report: options.report,
    stopWhenWidth: options.stopWhenWidth ?? null,
    emitOtlp: options.emitOtlp ?? null,
  };
  if (options.maxBodyMemory < options.maxDecompressedBytes)
    throw new CliError(
      `--max-body-memory (${options.maxBodyMemory}) must be at least --max-decompressed-bytes (${options.maxDecompressedBytes})`,
    );
  const budget = new BodyBudget(options.maxBodyMemory);
  const arena = new BodyArena();
  // the ports first: a busy port fails before the store or the bundle is touched
  const late = new LateLive();
  const httpServer = new OtlpHttpServer(
    {
      ...http,
      token,
      tracesPath: '/v1/traces',
      saturationWaitMs: options.saturationWaitMs,
      maxBodyBytes: options.maxBodyBytes,
      maxDecompressedBytes: options.maxDecompressedBytes,
      budget,
      arena,
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
  let live: OpenLive;
  try {
    live = await openLive(runOptions, arena);
  } catch (error) {
    await grpcServer?.shutdown();
    await httpServer.shutdown();
    throw error;
  }
  late.set(live.bodies, live.api);
  process.stderr.write(
    `evalstream serve: run ${live.runId}; OTLP/HTTP + live API on http://${bound.address}:${bound.port}` +
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
  const end = await live.finish();
  await grpcServer?.shutdown();
  await httpServer.shutdown();
  process.stderr.write(
    `evalstream serve: ${end.trials} trials scored` +
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

/** The live run as the receivers use it. */
interface OpenLive {
  runId: string;
  bodies: BodyHandler;
  api: LiveReadApi;
  finish(): Promise<LiveRunEnd>;
}

async function openLive(options: LiveRunOptions, arena: BodyArena): Promise<OpenLive> {
  try {
    const run = await openLiveRun(
      options,
      (m) => process.stderr.write(`evalstream: warning: ${m}\n`),
      (m) => process.stderr.write(`evalstream serve: error: ${m}\n`),
    );
    run.engine.start();
    return {
      runId: run.runId,
      bodies: decodingBodyHandler(run.engine, arena),
      api: run.engine,
      finish: () => run.finish(),
    };
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT_BAD_INPUT);
    throw error;
  }
}
