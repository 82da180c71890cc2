import { gzipSync } from 'node:zlib';
import { OTLPTraceExporter as ProtoHttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { Summary } from '../../src/model/summary.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine, type LiveEngineConfig } from '../../src/serve/live-engine.js';
import { OtlpGrpcServer } from '../../src/serve/otlp-grpc-server.js';
import { OtlpHttpServer, type OtlpHttpServerConfig } from '../../src/serve/otlp-http-server.js';
import type { Sink } from '../../src/sinks/sink.js';
import { fakeAgent } from './fake-agent.js';
import { fileSummary, normalizedSummary } from './file-summary.js';
import { sendMixedExporterTrials } from './mixed-exporter-trials.js';
import { liveEngineConfig } from './live-engine-config.js';

const RUN = 'agent-eval-20260101000000-00000000';

interface Live {
  engine: LiveEngine;
  http: OtlpHttpServer;
  grpcServer: OtlpGrpcServer;
  httpUrl: string;
  grpcUrl: string;
}

const open: Live[] = [];
afterEach(async () => {
  for (const live of open.splice(0)) {
    await live.http.shutdown();
    await live.grpcServer.shutdown();
  }
});

async function startLive(
  overrides: Partial<LiveEngineConfig> = {},
  sinks: Sink<ScoredTrial>[] = [],
  token: string | null = null,
  limits = { maxBodyBytes: 4 * 1024 * 1024, maxDecompressedBytes: 16 * 1024 * 1024 },
  httpOptions: Partial<OtlpHttpServerConfig> = {},
): Promise<Live> {
  const config = liveEngineConfig({ runId: RUN, ...overrides });
  const planner = createTrialPlanner({ config: parseConfig({}, 'defaults') });
  const engine = new LiveEngine(config, planner, sinks);
  const http = new OtlpHttpServer(
    { host: '127.0.0.1', port: 0, token, ...limits, ...httpOptions },
    decodingBodyHandler(engine),
    engine,
  );
  const grpcServer = new OtlpGrpcServer(
    {
      host: '127.0.0.1',
      port: 0,
      token,
      maxMessageBytes: limits.maxDecompressedBytes,
      saturationWaitMs: httpOptions.saturationWaitMs,
    },
    decodingBodyHandler(engine),
  );
  const address = await http.start();
  const grpcPort = await grpcServer.start();
  engine.start();
  const live = {
    engine,
    http,
    grpcServer,
    httpUrl: `http://127.0.0.1:${address.port}`,
    grpcUrl: `http://127.0.0.1:${grpcPort}`,
  };
  open.push(live);
  return live;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A server whose sink holds every trial until `release` (and then records it in `stored`), with room
 * for one pending trial scored at a time: one export fills its queues.
 */
async function startGatedLive(httpOptions: Partial<OtlpHttpServerConfig> = {}) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const stored: ScoredTrial[] = [];
  const sink: Sink<ScoredTrial> = {
    write: async (s) => {
      await gate;
      stored.push(s);
    },
    flush: async () => {},
    shutdown: async () => {},
  };
  const live = await startLive(
    {
      maxPendingTrials: 1,
      concurrency: 1,
      completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null },
    },
    [sink],
    null,
    undefined,
    httpOptions,
  );
  return { live, release, stored };
}

describe('evalstream serve (live OTLP)', () => {
  it('scores traces sent by the real OTel exporters (proto, JSON, gRPC) exactly as scoring the same traces from a file', async () => {
    const live = await startLive();
    const sent = await sendMixedExporterTrials(live.httpUrl, live.grpcUrl);
    await waitFor(async () => {
      const res = await fetch(`${live.httpUrl}/v1/summary`);
      return ((await res.json()) as Summary).trial_count === 6;
    });
    const liveSummary = (await (await fetch(`${live.httpUrl}/v1/summary`)).json()) as Summary;
    const fromFile = await fileSummary(sent.spans, RUN);
    expect(fromFile.trial_count).toBe(6);
    expect(normalizedSummary(liveSummary)).toEqual(normalizedSummary(fromFile));
    const names = liveSummary.scores.scores.map((s) => s.name);
    expect(names).toContain('trajectory_stats.tool_calls');
    const trial = (await (await fetch(`${live.httpUrl}/v1/trials/p2`)).json()) as {
      version: number;
      task_id: string;
    };
    expect(trial).toMatchObject({ version: 1, task_id: 'weather' });
    const metrics = await (await fetch(`${live.httpUrl}/metrics`)).text();
    expect(metrics).toContain(`evalstream_spans_received_total ${sent.spans.length}`);
    expect(metrics).toContain('evalstream_trials_scored_total 6');
    await sent.shutdown();
  });

  it('serves the summary without task_metric_values on ?omit=, with its build time in Server-Timing', async () => {
    const live = await startLive();
    const agent = fakeAgent(new ProtoHttpExporter({ url: `${live.httpUrl}/v1/traces` }));
    agent.runTrial('weather', 'o1');
    agent.runTrial('time', 'o2', { tools: ['get_time'] });
    await agent.provider.forceFlush();
    await waitFor(() => live.engine.summary().trial_count === 2);
    const full = await fetch(`${live.httpUrl}/v1/summary`);
    const fullBody = (await full.json()) as Record<string, unknown>;
    const light = await fetch(`${live.httpUrl}/v1/summary?omit=task_metric_values`);
    const lightBody = (await light.json()) as Record<string, unknown>;
    for (const res of [full, light]) {
      expect(res.headers.get('server-timing')).toMatch(/^summary;dur=\d+(\.\d)?$/);
    }
    expect(Object.keys(fullBody['task_metric_values'] as object).sort()).toEqual(['time', 'weather']);
    expect('task_metric_values' in lightBody).toBe(false);
    const { task_metric_values: _omitted, ...rest } = fullBody;
    expect(Object.keys(lightBody)).toEqual(Object.keys(rest));
    expect(lightBody).toEqual(rest);
    const typo = await fetch(`${live.httpUrl}/v1/summary?omit=task_values`);
    expect(typo.status).toBe(400);
    expect(await typo.json()).toEqual({
      error: "omit: only 'task_metric_values' can be left out, not 'task_values'",
    });
    await agent.provider.shutdown();
  });

  it('re-scores a trial when late spans arrive, replacing its scores (never counted twice)', async () => {
    const live = await startLive();
    const agent = fakeAgent(new ProtoHttpExporter({ url: `${live.httpUrl}/v1/traces` }));
    agent.runTrial('t', 'late', { tools: ['a'] });
    await agent.provider.forceFlush();
    await waitFor(() => live.engine.summary().trial_count === 1);
    const before = live.engine.summary().scores.scores.find((s) => s.name === 'trajectory_stats.tool_calls');
    expect(before?.mean).toBe(1);
    // a second trace of the same conversation (another turn) arrives later
    agent.runTrial('t', 'late', { tools: ['b', 'c'] });
    await agent.provider.forceFlush();
    await waitFor(() => (live.engine.trialJson('late') as { version: number }).version === 2);
    const after = live.engine.summary();
    expect(after.trial_count).toBe(1);
    expect(after.score_count).toBe(live.engine.finalTrials()[0]!.scores.length);
    expect(after.scores.scores.find((s) => s.name === 'trajectory_stats.tool_calls')).toMatchObject({
      count: 1,
      mean: 3,
    });
    await agent.provider.shutdown();
  });

  it('keeps a scored trial as plain data: its output holds no trace handle, even when no sink read it', async () => {
    const live = await startLive(); // no sinks: nothing reads output_text before the trial is kept
    const agent = fakeAgent(new ProtoHttpExporter({ url: `${live.httpUrl}/v1/traces` }));
    agent.runTrial('t', 'kept', { tools: ['a'] });
    await agent.provider.forceFlush();
    await waitFor(() => live.engine.summary().trial_count === 1);
    const output = live.engine.finalTrials()[0]!.item.trial.output!;
    expect(Object.getOwnPropertySymbols(output)).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(output, 'output_text')?.get).toBeUndefined();
    expect(Object.keys(output)).toEqual(['output_text', 'response', 'metadata']);
    await agent.provider.shutdown();
  });

  it('seals a trial after retainMs: its spans are released and later spans are refused as partial success', async () => {
    const live = await startLive({ retainMs: 100 });
    const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
    agent.runTrial('t', 'sealed');
    const body = ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
    const post = (bytes: Uint8Array) =>
      fetch(`${live.httpUrl}/v1/traces`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/x-protobuf' },
      });
    expect((await post(body)).status).toBe(200);
    await waitFor(() => live.engine.summary().trial_count === 1);
    await new Promise((r) => setTimeout(r, 250));
    const again = await post(body);
    expect(again.status).toBe(200);
    const bytes = new Uint8Array(await again.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(0); // partial_success is set
    expect(live.engine.metrics.spansRejected).toBe(agent.recorded.getFinishedSpans().length);
    expect((live.engine.trialJson('sealed') as { version: number }).version).toBe(1);
  });

  it('retains at most retainMaxTrials scored trials: the oldest-scored is sealed early, newer ones still take late spans', async () => {
    const live = await startLive({ retainMs: 60_000, retainMaxTrials: 2 });
    const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
    const bodies: Uint8Array[] = [];
    const post = (bytes: Uint8Array) =>
      fetch(`${live.httpUrl}/v1/traces`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': 'application/x-protobuf' },
      });
    for (const id of ['first', 'second', 'third']) {
      agent.recorded.reset();
      agent.runTrial('t', id);
      const body = ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
      bodies.push(body);
      expect((await post(body)).status).toBe(200);
      await waitFor(() => live.engine.summary().trial_count === bodies.length);
    }
    const spansPerTrial = agent.recorded.getFinishedSpans().length;
    // the first trial's spans again: sealed (3 scored > 2 retained), refused as partial success
    live.engine.tick();
    const refused = await post(bodies[0]!);
    expect(refused.status).toBe(200);
    expect(new Uint8Array(await refused.arrayBuffer()).length).toBeGreaterThan(0);
    expect(live.engine.metrics.spansRejected).toBe(spansPerTrial);
    // a new span for the newest trial is still placed (late spans re-score it)
    agent.recorded.reset();
    agent.runTrial('t', 'third');
    expect(
      (await post(ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!)).status,
    ).toBe(200);
    expect(live.engine.metrics.spansRejected).toBe(spansPerTrial);
    await waitFor(() => (live.engine.trialJson('third') as { version: number } | null)?.version === 2);
    expect((live.engine.trialJson('first') as { version: number }).version).toBe(1);
  });

  it('ignores a whole request re-sent after its trial was scored (spans read back from the request to check)', async () => {
    const live = await startLive();
    const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
    agent.runTrial('t', 'resent', { tools: ['a', 'b'] });
    const spans = agent.recorded.getFinishedSpans();
    const body = ProtobufTraceSerializer.serializeRequest(spans)!;
    const post = () =>
      fetch(`${live.httpUrl}/v1/traces`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-protobuf' },
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-length')).toBe('0'); // the empty ExportTraceServiceResponse
    await waitFor(() => live.engine.summary().trial_count === 1);
    const again = await post();
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(0); // no partial success: nothing refused
    await new Promise((r) => setTimeout(r, 150)); // past settleMs: a changed trial would be due
    expect(live.engine.metrics.spansDuplicate).toBe(spans.length);
    expect(live.engine.metrics.spansReceived).toBe(2 * spans.length);
    expect((live.engine.trialJson('resent') as { version: number }).version).toBe(1);
  });

  it('answers 415, 400, 413, 401 and partial success as the OTLP spec asks', async () => {
    const live = await startLive({}, [], 'tok', { maxBodyBytes: 2048, maxDecompressedBytes: 4096 });
    const auth = { authorization: 'Bearer tok' };
    const post = (body: string | Uint8Array, headers: Record<string, string>) =>
      fetch(`${live.httpUrl}/v1/traces`, { method: 'POST', body, headers });
    expect((await post('x', { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('{not json', { ...auth, 'content-type': 'application/json' })).status).toBe(400);
    expect(
      (await post(new Uint8Array([0xff, 0xff, 0xff]), { ...auth, 'content-type': 'application/x-protobuf' }))
        .status,
    ).toBe(400);
    expect(
      (await post(new Uint8Array(4000), { ...auth, 'content-type': 'application/x-protobuf' })).status,
    ).toBe(413);
    const bomb = gzipSync(Buffer.alloc(1_000_000, 0x20));
    expect(
      (await post(bomb, { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' })).status,
    ).toBe(413);
    expect((await post('{}', { 'content-type': 'application/json' })).status).toBe(401);
    expect((await fetch(`${live.httpUrl}/v1/summary`)).status).toBe(401);
    expect((await fetch(`${live.httpUrl}/healthz`)).status).toBe(200);
    const empty = await post('{}', { ...auth, 'content-type': 'application/json' });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({});
    const zeroIds = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                { traceId: '00000000000000000000000000000000', spanId: '0000000000000000', name: 'bad' },
                // wrong length (a 1-byte id once read as base64) and none at all: invalid as well
                { traceId: 'zz', spanId: 'b7ad6b7169203332', name: 'short' },
                { spanId: 'b7ad6b7169203333', name: 'no trace id' },
                { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'ok' },
              ],
            },
          ],
        },
      ],
    };
    const partial = await post(JSON.stringify(zeroIds), { ...auth, 'content-type': 'application/json' });
    expect(partial.status).toBe(200);
    expect(await partial.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '3',
        errorMessage: '3 span(s) without a valid trace id or span id were rejected',
      },
    });
  });

  it('throttles with 429 + Retry-After and RESOURCE_EXHAUSTED when scoring backs up, and loses no accepted span', async () => {
    const { live, release, stored } = await startGatedLive();
    const serializeTrial = (trial: string): Uint8Array => {
      const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
      agent.runTrial('t', trial);
      return ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
    };
    const send = (body: Uint8Array) =>
      fetch(`${live.httpUrl}/v1/traces`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-protobuf' },
      });
    expect((await send(serializeTrial('s1'))).status).toBe(200);
    await waitFor(() => live.engine.metrics.scoringQueueTrials >= 1);
    const throttled = await send(serializeTrial('s2'));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    // saturated, a request is refused before its body is read: a body that does not decode gets
    // 429, not 400, and the server goes on answering
    const unread = await send(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    expect(unread.status).toBe(429);
    expect(unread.headers.get('retry-after')).toBe('1');
    expect((await send(serializeTrial('s2'))).status).toBe(429);
    const client = new grpc.Client(live.grpcUrl.replace('http://', ''), grpc.credentials.createInsecure());
    const exportCode = (body: Uint8Array): Promise<number> =>
      new Promise<number>((resolve) => {
        client.makeUnaryRequest(
          '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.from(body),
          (error) => resolve(error?.code ?? 0),
        );
      });
    expect(await exportCode(serializeTrial('s3'))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await exportCode(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    client.close();
    expect(live.engine.metrics.exportsThrottled).toBe(5);
    release();
    await live.engine.whenIdle();
    expect((await send(serializeTrial('s2'))).status).toBe(200);
    const count = await live.engine.shutdown();
    const final = live.engine.finalTrials();
    expect(final).toHaveLength(count);
    expect(final.map((t) => t.item.trial.id).sort()).toEqual(['s1', 's2']);
    expect(stored.map((t) => t.item.trial.id).sort()).toEqual(['s1', 's2']);
    const spans = Number(/evalstream_spans_received_total (\d+)/.exec(live.engine.metricsText())![1]);
    const storedSpans = final.reduce(
      (n, t) =>
        n +
        Number(
          t.scores.find((s) => s.metric_type === 'trajectory_stats')?.outputs.find((o) => o.name === 'steps')
            ?.value ?? 0,
        ),
      0,
    );
    expect(storedSpans).toBe(spans);
  });

  describe('--saturation-wait-ms: an export that finds the queues full waits, unread, for room', () => {
    /** A gated server (see `startGatedLive`) already saturated by one export. */
    async function saturatedLive(saturationWaitMs: number) {
      const { live, release } = await startGatedLive({ saturationWaitMs });
      const send = (trial: string) => {
        const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
        agent.runTrial('t', trial);
        return fetch(`${live.httpUrl}/v1/traces`, {
          method: 'POST',
          body: ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!,
          headers: { 'content-type': 'application/x-protobuf' },
        });
      };
      expect((await send('s1')).status).toBe(200);
      await waitFor(() => live.engine.metrics.scoringQueueTrials >= 1);
      return { live, send, release };
    }

    it('takes the export as soon as there is room: 200, no 429', async () => {
      // a wait far longer than the test may run: a 200 can only come from being let in on room
      const { live, send, release } = await saturatedLive(600_000);
      let answered = false;
      const held = send('s2').then((r) => {
        answered = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      release();
      expect((await held).status).toBe(200);
      expect(live.engine.metrics.exportsThrottled).toBe(0);
      // the wait is counted, with its time
      const text = live.engine.metricsText();
      expect(text).toMatch(/^evalstream_export_waits_total 1$/m);
      expect(Number(/^evalstream_export_wait_ms_sum (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
      const count = await live.engine.shutdown();
      const final = live.engine.finalTrials();
      expect(final).toHaveLength(count);
      expect(final.map((t) => t.item.trial.id).sort()).toEqual(['s1', 's2']);
    });

    it('answers 429 + Retry-After when the queues stay full for the whole wait', async () => {
      const { live, send, release } = await saturatedLive(250);
      const started = performance.now();
      const refused = await send('s2');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
      expect(live.engine.metrics.exportsThrottled).toBe(1);
      expect(live.engine.metrics.exportWaits).toBe(1);
      expect(live.engine.metrics.exportWaitMsSum).toBeGreaterThanOrEqual(240);
      release();
      const count = await live.engine.shutdown();
      const final = live.engine.finalTrials();
      expect(final).toHaveLength(count);
      expect(final.map((t) => t.item.trial.id)).toEqual(['s1']);
    });

    it('OTLP/gRPC waits the same way: OK once there is room, RESOURCE_EXHAUSTED when the wait runs out', async () => {
      const grpcExport = (live: Live, trial: string): Promise<number> => {
        const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
        agent.runTrial('t', trial);
        const body = ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
        const client = new grpc.Client(
          live.grpcUrl.replace('http://', ''),
          grpc.credentials.createInsecure(),
        );
        return new Promise<number>((resolve) => {
          client.makeUnaryRequest(
            '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
            (b: Buffer) => b,
            (b: Buffer) => b,
            Buffer.from(body),
            (error) => {
              client.close();
              resolve(error?.code ?? grpc.status.OK);
            },
          );
        });
      };
      const waiting = await saturatedLive(600_000);
      let answered = false;
      const held = grpcExport(waiting.live, 's2').then((code) => {
        answered = true;
        return code;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      waiting.release();
      expect(await held).toBe(grpc.status.OK);
      expect(waiting.live.engine.metrics.exportsThrottled).toBe(0);
      await waiting.live.engine.shutdown();
      expect(
        waiting.live.engine
          .finalTrials()
          .map((t) => t.item.trial.id)
          .sort(),
      ).toEqual(['s1', 's2']);

      const short = await saturatedLive(250);
      const started = performance.now();
      expect(await grpcExport(short.live, 's2')).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
      expect(short.live.engine.metrics.exportsThrottled).toBe(1);
      short.release();
    });

    it('answers 503 to a waiting export when the server shuts down', async () => {
      const { live, send, release } = await saturatedLive(600_000);
      const held = send('s2');
      await new Promise((r) => setTimeout(r, 100));
      live.http.stopAccepting();
      const shutdown = live.engine.shutdown();
      expect((await held).status).toBe(503);
      release();
      expect(await shutdown).toBe(1);
      expect(live.engine.finalTrials().map((t) => t.item.trial.id)).toEqual(['s1']);
    });
  });

  it('flushes an open trial at shutdown as incomplete, with a diagnostic', async () => {
    const live = await startLive();
    const agent = fakeAgent(new ProtoHttpExporter({ url: `${live.httpUrl}/v1/traces` }));
    agent.runTrial('t', 'open', { end: false });
    await agent.provider.forceFlush();
    await waitFor(() => live.engine.metrics.spansReceived > 0);
    const count = await live.engine.shutdown();
    const final = live.engine.finalTrials();
    expect(final).toHaveLength(count);
    expect(final).toHaveLength(1);
    const diagnostics = final[0]!.scores.flatMap((s) => s.diagnostics);
    expect(diagnostics).toContainEqual(
      expect.objectContaining({ details: { completion: 'shutdown' }, severity: 'warning' }),
    );
    await agent.provider.shutdown();
  });
});
