import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { otlpJsonToRequest } from '../../evidence/otlp/otlp-json-to-request.js';
import { decodeOtlpProtobuf } from '../../evidence/otlp/decode-otlp-protobuf.js';
import { parseLosslessJson } from '../../evidence/otlp/parse-lossless-json.js';
import { loadConfig } from '../../config/load-config.js';
import { parseConfig } from '../../config/parse-config.js';
import { createTrialPlanner } from '../../pipeline/create-trial-planner.js';
import type { ScoredTrial } from '../../model/scored-trial.js';
import type { Sink } from '../../sinks/sink.js';
import { toRunBundle } from '../../sinks/to-run-bundle.js';
import { bundleReportWriter } from '../../bundle/bundle-report-writer.js';
import { LiveDuckDBStore } from '../../serve/live-duckdb-store.js';
import { LiveEngine } from '../../serve/live-engine.js';
import { OtlpGrpcServer } from '../../serve/otlp-grpc-server.js';
import { OtlpHttpServer } from '../../serve/otlp-http-server.js';
import type { RequestDecoder } from '../../serve/serve-types.js';
import { newRunId } from '../../bundle/new-run-id.js';
import { CliError } from '../cli-error.js';
import { parseHostPort } from '../parse-host-port.js';

/** Decodes an OTLP/HTTP or gRPC request body with the project's own decoders. */
export const decodeExportRequest: RequestDecoder = (body, encoding) => {
  const request =
    encoding === 'protobuf'
      ? decodeOtlpProtobuf(body)
      : otlpJsonToRequest(
          parseLosslessJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')),
        );
  return [...request.resourceSpans];
};

function positiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new CliError(`${flag} expects a non-negative integer, got '${value}'`);
    return n;
  };
}

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
}

/**
 * `evalstream serve`: receives OTLP traces over HTTP and gRPC, scores each trial when it completes,
 * serves live aggregates, and on SIGINT/SIGTERM writes the run bundle and closes the store.
 *
 * @example
 * evalstream serve --http 127.0.0.1:4318 --grpc 127.0.0.1:4317 --out runs/live --db runs/live.duckdb
 */
export function serveCommand(): Command {
  return new Command('serve')
    .description('Receive OTLP traces (HTTP + gRPC), score trials as they finish, keep live aggregates.')
    .option('--http <host:port>', 'OTLP/HTTP receiver and live API address', '127.0.0.1:4318')
    .option('--grpc <host:port>', 'OTLP/gRPC receiver address', '127.0.0.1:4317')
    .option('--no-grpc', 'do not start the gRPC receiver')
    .option('--config <file>', 'evalstream config (metrics per task, views)')
    .option('--out <dir>', 'write the run bundle here at shutdown')
    .option('--db <file>', 'store scores, spans and tool calls in this DuckDB file as trials are scored')
    .option('--token-file <file>', 'require this bearer token (file content, trimmed) on every request')
    .option('--run-id <id>', 'run id (default agent-eval-<time>-<hex>)')
    .option(
      '--settle-ms <ms>',
      'quiet time after a trial’s end span before scoring',
      positiveInt('--settle-ms'),
      2000,
    )
    .option(
      '--idle-timeout <ms>',
      'score a trial without an end span after this quiet time',
      positiveInt('--idle-timeout'),
      300_000,
    )
    .option('--end-marker <attribute>', 'an attribute marking a trial’s last span')
    .option(
      '--max-body-bytes <n>',
      'largest request body on the wire',
      positiveInt('--max-body-bytes'),
      16 * 1024 * 1024,
    )
    .option(
      '--max-decompressed-bytes <n>',
      'largest body after gzip',
      positiveInt('--max-decompressed-bytes'),
      64 * 1024 * 1024,
    )
    .option(
      '--max-queued-spans <n>',
      'spans accepted but not yet assembled before throttling',
      positiveInt('--max-queued-spans'),
      200_000,
    )
    .option(
      '--max-pending-trials <n>',
      'trials waiting to be scored before throttling',
      positiveInt('--max-pending-trials'),
      1000,
    )
    .option(
      '--saturation-wait-ms <ms>',
      'how long an OTLP/HTTP export that finds the queues full waits, unread, for room before 429 (0 = answer 429 at once)',
      positiveInt('--saturation-wait-ms'),
      1000,
    )
    .option('--concurrency <n>', 'trials scored at once', positiveInt('--concurrency'), 8)
    .option(
      '--retain-ms <ms>',
      'keep a scored trial’s spans this long for late spans (then later spans are refused)',
      positiveInt('--retain-ms'),
      300_000,
    )
    .option(
      '--retain-max-trials <n>',
      'retain at most this many scored trials for late spans; past it the oldest-scored are sealed early (bounds memory at high rates)',
      positiveInt('--retain-max-trials'),
      20_000,
    )
    .option(
      '--flush-ms <ms>',
      'with --db: commit scored trials to the store at least this often (one transaction per batch)',
      positiveInt('--flush-ms'),
      250,
    )
    .addOption(
      new Option('--trial-key <attr...>', 'attributes naming the trial').default(['gen_ai.conversation.id']),
    )
    .addOption(
      new Option('--task-key <attr...>', 'attributes naming the task').default(['nemo.test_case.name']),
    )
    .option('--no-report', 'do not write report.html into the bundle')
    .addHelpText(
      'after',
      '\nExample:\n  evalstream serve --http 127.0.0.1:4318 --grpc 127.0.0.1:4317 --out runs/live --db runs/live.duckdb\n' +
        '  # then point an OTLP exporter at http://127.0.0.1:4318/v1/traces and open http://127.0.0.1:4318/\n',
    )
    .action(async (options: ServeOptions) => {
      await runServe(options);
    });
}

async function runServe(options: ServeOptions): Promise<void> {
  const http = parseHostPort(options.http, '--http');
  const grpcAddress = options.grpc === false ? null : parseHostPort(options.grpc, '--grpc');
  const token = options.tokenFile === undefined ? null : (await readFile(options.tokenFile, 'utf8')).trim();
  if (token === '') throw new CliError(`--token-file ${options.tokenFile} is empty`);
  const config =
    options.config === undefined ? parseConfig({}, 'defaults') : await loadConfig(options.config);
  const runId = options.runId ?? config.runId ?? newRunId(new Date());
  const planner = createTrialPlanner({
    config,
    ...(options.config === undefined ? {} : { configFile: options.config }),
    onWarning: (m) => process.stderr.write(`evalstream: warning: ${m}\n`),
  });
  const sinks: Sink<ScoredTrial>[] = [];
  if (options.db !== undefined) {
    const store = new LiveDuckDBStore(options.db, {
      runId,
      flushMs: Math.max(1, options.flushMs),
      maxBufferedSpans: options.maxQueuedSpans,
      threads: 1,
    });
    await store.open();
    sinks.push(store);
  }
  const engine = new LiveEngine(
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
    },
    planner,
    sinks,
  );
  const httpServer = new OtlpHttpServer(
    {
      ...http,
      token,
      tracesPath: '/v1/traces',
      saturationWaitMs: options.saturationWaitMs,
      maxBodyBytes: options.maxBodyBytes,
      maxDecompressedBytes: options.maxDecompressedBytes,
    },
    decodeExportRequest,
    engine,
    engine,
  );
  const grpcServer =
    grpcAddress === null
      ? null
      : new OtlpGrpcServer(
          { ...grpcAddress, token, maxMessageBytes: options.maxDecompressedBytes },
          decodeExportRequest,
          engine,
        );
  const bound = await httpServer.start();
  const grpcPort = grpcServer === null ? null : await grpcServer.start();
  engine.start();
  process.stderr.write(
    `evalstream serve: run ${runId}; OTLP/HTTP + live API on http://${bound.address}:${bound.port}` +
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
  const trials = await engine.shutdown();
  for (const sink of sinks) await sink.shutdown();
  if (options.out !== undefined) {
    const bundle = toRunBundle(options.out, {
      runId,
      labels: config.labels,
      reportWriter: options.report ? bundleReportWriter : null,
    });
    for (const trial of trials) await bundle.write(trial);
    await bundle.shutdown();
  }
  await grpcServer?.shutdown();
  await httpServer.shutdown();
  process.stderr.write(
    `evalstream serve: ${trials.length} trials scored` +
      (options.out === undefined ? '' : `; bundle in ${options.out}`) +
      '\n',
  );
}
