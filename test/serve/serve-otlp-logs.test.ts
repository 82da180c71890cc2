/**
 * `evalstream serve` takes OTLP logs (`POST /v1/logs` protobuf / JSON / gzip, gRPC
 * `LogsService/Export`): another evaluator's `gen_ai.evaluation.result` records join the trial of
 * their trace id, whether they come before its spans or after it was scored (then it is scored
 * again), and a metric reads them through `logRecords()`; records that cannot join are counted.
 */
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import {
  JsonLogsSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { OTLPTraceHandle } from '../../src/evidence/otlp/otlp-trace-handle.js';
import type { OtlpExportRequest } from '../../src/evidence/otlp/otlp-types.js';
import type { Metric } from '../../src/model/metric.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { LiveEngine, type LiveEngineConfig } from '../../src/serve/live-engine.js';
import { OtlpGrpcServer } from '../../src/serve/otlp-grpc-server.js';
import { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';
import { evaluationResultLogs } from '../evidence/otlp/record-sdk-logs.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';

const SPEC = {
  description: null,
  kind: 'continuous',
  valueSchema: 'ContinuousScore',
  required: true,
} as const;

/** Reports the external evaluator's helpfulness score (-1 when none) and the trial's log records. */
const externalEval: Metric = {
  type: 'external_eval',
  outputSpec: () => [
    { ...SPEC, name: 'helpfulness' },
    { ...SPEC, name: 'log_records' },
  ],
  computeScores: async (input) => {
    const handle = await input.candidate.evidence!.trace(undefined, 'otlp');
    if (!(handle instanceof OTLPTraceHandle)) throw new Error('not an OTLP trace');
    const records = handle.logRecords();
    const value = records
      .find((r) => r.eventName === 'gen_ai.evaluation.result')
      ?.attributes.get('gen_ai.evaluation.score.value');
    return {
      outputs: [
        { name: 'helpfulness', value: value?.type === 'double' ? value.value : -1 },
        { name: 'log_records', value: records.length },
      ],
    };
  },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A live engine scoring `externalEval` only, with the test configuration and `overrides`. */
function externalEvalEngine(
  overrides: Partial<LiveEngineConfig> = {},
  nowMs: () => number = Date.now,
): LiveEngine {
  return new LiveEngine(
    liveEngineConfig(overrides),
    createTrialPlanner({ config: parseConfig({ metrics: { default: [externalEval] } }, 'test') }),
    [],
    nowMs,
  );
}

async function startLive(): Promise<{ engine: LiveEngine; httpUrl: string; grpcAddress: string }> {
  const engine = externalEvalEngine({
    completion: { settleMs: 20, idleTimeoutMs: 60_000, endMarkerAttribute: null },
  });
  const http = new OtlpHttpServer(
    {
      host: '127.0.0.1',
      port: 0,
      token: 'secret',
      maxBodyBytes: 1 << 20,
      maxDecompressedBytes: 4 << 20,
    },
    decodingBodyHandler(engine),
    engine,
  );
  const grpcServer = new OtlpGrpcServer(
    { host: '127.0.0.1', port: 0, token: 'secret', maxMessageBytes: 4 << 20 },
    decodingBodyHandler(engine),
  );
  const { port } = await http.start();
  const grpcPort = await grpcServer.start();
  engine.start();
  closers.push(async () => {
    await http.shutdown();
    await grpcServer.shutdown();
    await engine.shutdown();
  });
  return { engine, httpUrl: `http://127.0.0.1:${port}`, grpcAddress: `127.0.0.1:${grpcPort}` };
}

/** One trial's spans from the instrumented fake agent, and its trace id. */
function trialSpans(trial: string): { spans: ReadableSpan[]; traceId: string } {
  const agent = fakeAgent(new InMemorySpanExporter());
  agent.runTrial('t', trial);
  const spans = agent.recorded.getFinishedSpans();
  return { spans, traceId: spans[0]!.spanContext().traceId };
}

function post(
  url: string,
  body: Uint8Array,
  type: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, authorization: 'Bearer secret', ...headers },
    body,
  });
}

function grpcLogsExport(address: string, records: ReadableLogRecord[]): Promise<number> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  metadata.set('authorization', 'Bearer secret');
  return new Promise<number>((resolve) => {
    client.makeUnaryRequest(
      '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.from(ProtobufLogsSerializer.serializeRequest(records) as Uint8Array),
      metadata,
      (error) => {
        client.close();
        resolve(error?.code ?? grpc.status.OK);
      },
    );
  });
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

type TrialAnswer = { version: number; scores: { outputs: { name: string; value: unknown }[] }[] };

function outputsOf(engine: LiveEngine, trialId: string): Record<string, unknown> & { version: number } {
  const trial = engine.trialJson(trialId) as TrialAnswer;
  return {
    version: trial.version,
    ...Object.fromEntries(trial.scores.flatMap((s) => s.outputs.map((o) => [o.name, o.value]))),
  };
}

describe('serve: OTLP logs', () => {
  it('HTTP (protobuf, gzip JSON) and gRPC log records end up on their trials', async () => {
    const { engine, httpUrl, grpcAddress } = await startLive();
    const [a, b, c] = ['a', 'b', 'c'].map(trialSpans) as ReturnType<typeof trialSpans>[];
    const sendSpans = async (spans: ReadableSpan[]): Promise<void> => {
      const r = await post(
        `${httpUrl}/v1/traces`,
        ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array,
        'application/x-protobuf',
      );
      expect(r.status).toBe(200);
    };

    // a: protobuf logs before the spans
    const before = await post(
      `${httpUrl}/v1/logs`,
      ProtobufLogsSerializer.serializeRequest(
        evaluationResultLogs([{ traceId: a!.traceId, name: 'helpfulness', value: 0.25 }]),
      ) as Uint8Array,
      'application/x-protobuf',
    );
    expect(before.status).toBe(200);
    expect(before.headers.get('content-length')).toBe('0');
    // c: gzip OTLP/JSON logs before the spans, with one record that has no trace id
    const json = await post(
      `${httpUrl}/v1/logs`,
      gzipSync(
        JsonLogsSerializer.serializeRequest(
          evaluationResultLogs([
            { traceId: c!.traceId, name: 'helpfulness', value: 0.75 },
            { traceId: null, name: 'helpfulness', value: 1 },
          ]),
        ) as Uint8Array,
      ),
      'application/json',
      { 'content-encoding': 'gzip' },
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({
      partialSuccess: {
        rejectedLogRecords: '1',
        errorMessage: '1 log record(s) without a valid trace id cannot join a trial and were rejected',
      },
    });
    for (const t of [a, b, c]) await sendSpans(t!.spans);
    await waitFor(() => ['a', 'b', 'c'].every((id) => engine.trialJson(id) !== undefined));
    expect(outputsOf(engine, 'a')).toEqual({ version: 1, helpfulness: 0.25, log_records: 1 });
    expect(outputsOf(engine, 'b')).toEqual({ version: 1, helpfulness: -1, log_records: 0 });
    expect(outputsOf(engine, 'c')).toEqual({ version: 1, helpfulness: 0.75, log_records: 1 });

    // b: gRPC logs after the trial was scored: it is scored again with them
    expect(
      await grpcLogsExport(
        grpcAddress,
        evaluationResultLogs([{ traceId: b!.traceId, name: 'helpfulness', value: 0.5 }]),
      ),
    ).toBe(grpc.status.OK);
    await waitFor(() => (engine.trialJson('b') as TrialAnswer).version === 2);
    expect(outputsOf(engine, 'b')).toEqual({ version: 2, helpfulness: 0.5, log_records: 1 });
    expect(engine.metrics.logRecordsReceived).toBe(3);
    expect(engine.metrics.logRecordsRejected).toBe(1);
    expect(engine.metricsText()).toContain('evalstream_log_records_received_total 3');
  });

  it('refuses a logs body that does not decode (400 naming ExportLogsServiceRequest), and asks for the token', async () => {
    const { httpUrl, grpcAddress } = await startLive();
    const bad = await post(
      `${httpUrl}/v1/logs`,
      new Uint8Array([0x0a, 0x05, 0x12]),
      'application/x-protobuf',
    );
    expect(bad.status).toBe(400);
    const unauthorized = await fetch(`${httpUrl}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
    const client = new grpc.Client(grpcAddress, grpc.credentials.createInsecure());
    const details = await new Promise<string>((resolve) => {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', 'Bearer secret');
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
        (x: Buffer) => x,
        (x: Buffer) => x,
        Buffer.from([0x0a, 0x05, 0x12]),
        metadata,
        (error) => resolve(error?.details ?? ''),
      );
    });
    client.close();
    expect(details).toMatch(/^request does not decode as ExportLogsServiceRequest: truncated/);
  });

  it('counts records whose trace has no span within the idle timeout, and refuses those of sealed trials', async () => {
    let now = 1_000;
    const engine = externalEvalEngine(
      { completion: { settleMs: 0, idleTimeoutMs: 500, endMarkerAttribute: null }, retainMs: 100 },
      () => now,
    );
    const a = trialSpans('a');
    const orphan = 'ab'.repeat(16);
    expect(
      engine.acceptRequest(
        logsRequest([
          { traceId: orphan, name: 'helpfulness', value: 1 },
          { traceId: a.traceId, name: 'helpfulness', value: 0.5 },
        ]),
      ),
    ).toEqual({ rejectedSpans: 0, errorMessage: '' });
    engine.tick(); // grouped at 1000 ms
    now += 400; // within the idle timeout: a's record waits for a's spans
    engine.acceptRequest(decodeExportRequest(ProtobufTraceSerializer.serializeRequest(a.spans)!, 'protobuf'));
    engine.tick();
    await engine.whenIdle();
    expect(outputsOf(engine, 'a')).toEqual({ version: 1, helpfulness: 0.5, log_records: 1 });
    expect(engine.metrics.logRecordsUnattached).toBe(0);
    now += 200; // past the orphan's idle timeout (it goes, counted) and a's retention (a is sealed)
    engine.tick();
    expect(engine.metrics.logRecordsUnattached).toBe(1);
    expect(engine.metricsText()).toContain('evalstream_log_records_unattached_total 1\n');
    const sealed = engine.acceptRequest(logsRequest([{ traceId: a.traceId, name: 'helpfulness', value: 1 }]));
    expect(sealed).toEqual({
      rejectedSpans: 1,
      errorMessage: '1 log record(s) arrived for trials already sealed and were rejected',
    });
    expect(engine.metrics.logRecordsRejected).toBe(1);
    expect(engine.metrics.spansRejected).toBe(0);
    await engine.shutdown();
    expect(outputsOf(engine, 'a').version).toBe(1);
  });

  it('counts records still waiting for spans at shutdown as unattached', async () => {
    const engine = externalEvalEngine();
    engine.acceptRequest(
      logsRequest([
        { traceId: 'cd'.repeat(16), name: 'helpfulness', value: 1 },
        { traceId: 'cd'.repeat(16), name: 'helpfulness', value: 0 },
      ]),
    );
    expect(await engine.shutdown()).toBe(0);
    expect(engine.metrics.logRecordsReceived).toBe(2);
    expect(engine.metrics.logRecordsUnattached).toBe(2);
  });

  it('counts log records against the queue bound: a logs export past it is throttled whole', async () => {
    const engine = externalEvalEngine({ maxQueuedSpans: 2 });
    const three = [1, 2, 3].map(() => ({ traceId: 'ef'.repeat(16), name: 'helpfulness', value: 1 }));
    expect(engine.acceptRequest(logsRequest(three))).toMatchObject({ saturated: true });
    expect(engine.metrics.exportsThrottled).toBe(1);
    expect(engine.metrics.logRecordsReceived).toBe(0);
    expect(engine.acceptRequest(logsRequest(three.slice(1)))).toEqual({ rejectedSpans: 0, errorMessage: '' });
    expect(engine.metrics.logRecordsReceived).toBe(2);
    await engine.shutdown();
  });
});

/** The request `POST /v1/logs` hands to the engine for these evaluation results. */
function logsRequest(results: Parameters<typeof evaluationResultLogs>[0]): OtlpExportRequest {
  return decodeExportRequest(
    ProtobufLogsSerializer.serializeRequest(evaluationResultLogs(results))!,
    'protobuf',
    'logs',
  );
}
