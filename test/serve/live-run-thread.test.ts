import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter as ProtoHttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import type { Summary } from '../../src/model/summary.js';
import { LiveRunThread } from '../../src/serve/live-run-thread.js';
import type { LiveRunOptions } from '../../src/serve/open-live-run.js';
import { OtlpGrpcServer } from '../../src/serve/otlp-grpc-server.js';
import { fakeAgent } from './fake-agent.js';
import { fileSummary, normalizedSummary } from './file-summary.js';
import { sendMixedExporterTrials } from './mixed-exporter-trials.js';
import { postTraces } from './post-traces.js';
import { startEngineServer } from './start-engine-server.js';

const RUN = 'agent-eval-20260101000000-00000000';

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evalstream-live-thread-'));
  dirs.push(dir);
  return dir;
}

function runOptions(overrides: Partial<LiveRunOptions> = {}): LiveRunOptions {
  return {
    runId: RUN,
    configFile: null,
    out: null,
    db: null,
    settleMs: 0,
    idleTimeoutMs: 60_000,
    endMarker: null,
    maxQueuedSpans: 200_000,
    maxPendingTrials: 1000,
    concurrency: 8,
    retainMs: 300_000,
    retainMaxTrials: 20_000,
    flushMs: 250,
    trialKeys: ['gen_ai.conversation.id'],
    taskKeys: ['nemo.test_case.name'],
    report: false,
    stopWhenWidth: null,
    ...overrides,
  };
}

/** A live run on its own thread behind OTLP/HTTP and OTLP/gRPC receivers on free ports. */
async function startThreadLive(options: LiveRunOptions) {
  const problems: string[] = [];
  const run = await LiveRunThread.open(
    options,
    () => undefined,
    (m) => problems.push(m),
  );
  const { http, url: httpUrl } = await startEngineServer(run);
  const grpcServer = new OtlpGrpcServer(
    { host: '127.0.0.1', port: 0, token: null, maxMessageBytes: 16 << 20 },
    run,
  );
  const grpcUrl = `http://127.0.0.1:${await grpcServer.start()}`;
  let finished = false;
  const finish = async () => {
    http.stopAccepting();
    grpcServer.stopAccepting();
    finished = true;
    const end = await run.finish();
    await http.shutdown();
    await grpcServer.shutdown();
    return end;
  };
  cleanups.push(async () => {
    if (!finished) await finish();
  });
  return { run, httpUrl, grpcUrl, finish, problems };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
}

function serializeTrial(trial: string): Uint8Array {
  const agent = fakeAgent(new ProtoHttpExporter({ url: 'http://127.0.0.1:9/unused' }));
  agent.runTrial('t', trial);
  return ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
}

describe('a live run on its own thread (LiveRunThread)', () => {
  it('scores what the real exporters send as a file of the same spans, serves the summary, trials, metrics and events, and writes the bundle', async () => {
    const out = join(tempDir(), 'bundle');
    const live = await startThreadLive(runOptions({ out }));
    const events: unknown[] = [];
    const unsubscribe = live.run.onEvent((event) => events.push(event));
    const sent = await sendMixedExporterTrials(live.httpUrl, live.grpcUrl);
    const summaryOf = async () => (await (await fetch(`${live.httpUrl}/v1/summary`)).json()) as Summary;
    await waitFor(async () => (await summaryOf()).trial_count === 6);
    const fromFile = await fileSummary(sent.spans, RUN);
    expect(normalizedSummary(await summaryOf())).toEqual(normalizedSummary(fromFile));
    const light = (await (
      await fetch(`${live.httpUrl}/v1/summary?omit=task_metric_values`)
    ).json()) as object;
    expect(light).not.toHaveProperty('task_metric_values');
    expect(await (await fetch(`${live.httpUrl}/v1/trials/p2`)).json()).toMatchObject({
      version: 1,
      task_id: 'weather',
    });
    expect((await fetch(`${live.httpUrl}/v1/trials/nope`)).status).toBe(404);
    const metrics = await (await fetch(`${live.httpUrl}/metrics`)).text();
    expect(metrics).toContain(`evalstream_spans_received_total ${sent.spans.length}`);
    expect(metrics).toContain('evalstream_trials_scored_total 6');
    expect(events).toHaveLength(6);
    unsubscribe();
    expect(await (await fetch(`${live.httpUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    // a body that does not decode is refused by itself; the run goes on
    const bad = await postTraces(live.httpUrl, new Uint8Array([0xff, 0xff, 0xff, 0xff]));
    expect(bad.status).toBe(400);
    await sent.shutdown();
    expect(await live.finish()).toEqual({ trials: 6, problem: null });
    expect(live.problems).toEqual([]);
    const trials = readFileSync(join(out, 'trials.jsonl'), 'utf8').trim().split('\n');
    expect(trials.map((line) => (JSON.parse(line) as { id: string }).id).sort()).toEqual([
      'g1',
      'g2',
      'j1',
      'j2',
      'p1',
      'p2',
    ]);
  });

  it('refuses exports unread while its queues are full (429 / RESOURCE_EXHAUSTED) and takes them again once they have room', async () => {
    const dir = tempDir();
    const gate = join(dir, 'gate');
    const configFile = join(dir, 'evalstream.config.mjs');
    // a metric that finishes only once the gate file exists: the one pending trial fills the queues
    writeFileSync(
      configFile,
      `import { existsSync } from 'node:fs';\n` +
        `const gated = { type: 'gated', outputSpec: () => [{ name: 's', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }], ` +
        `computeScores: async () => { while (!existsSync(${JSON.stringify(gate)})) await new Promise((r) => setTimeout(r, 10)); return { outputs: [{ name: 's', value: 1 }] }; } };\n` +
        `export default { metrics: { default: [gated] } };\n`,
    );
    const live = await startThreadLive(runOptions({ configFile, maxPendingTrials: 1, concurrency: 1 }));
    const send = (body: Uint8Array) => postTraces(live.httpUrl, body);
    expect((await send(serializeTrial('s1'))).status).toBe(200);
    await waitFor(async () => live.run.isSaturated());
    const throttled = await send(serializeTrial('s2'));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    // refused before its body is read: a body that does not decode gets 429, not 400
    expect((await send(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).status).toBe(429);
    const client = new grpc.Client(live.grpcUrl.replace('http://', ''), grpc.credentials.createInsecure());
    const code = await new Promise<number>((resolve) => {
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.from(serializeTrial('s3')),
        (error) => resolve(error?.code ?? 0),
      );
    });
    client.close();
    expect(code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await live.run.metricsText()).toContain('evalstream_exports_throttled_total 3');
    writeFileSync(gate, '');
    await waitFor(async () => !live.run.isSaturated());
    expect((await send(serializeTrial('s2'))).status).toBe(200);
    expect(await live.finish()).toEqual({ trials: 2, problem: null });
  });

  it('rejects a config that cannot be used with its ConfigError, naming the file', async () => {
    const configFile = join(tempDir(), 'evalstream.config.mjs');
    writeFileSync(configFile, `export default { metrics: { default: ['no_such_metric'] } };\n`);
    const opened = LiveRunThread.open(runOptions({ configFile }), () => undefined);
    await expect(opened).rejects.toBeInstanceOf(ConfigError);
    await expect(opened).rejects.toThrow(configFile);
  });
});
