import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonHttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoHttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/model/summary.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { fakeAgent } from '../serve/fake-agent.js';
import { fileSummary, normalizedSummary } from '../serve/file-summary.js';

const root = join(import.meta.dirname, '..', '..');
const RUN = 'agent-eval-20260101000000-0000beef';

describe('evalstream serve with its engine thread (the default)', () => {
  it('scores what the real OTel exporters send (proto, JSON, gRPC) as `score` scores the same spans; bundle and DuckDB agree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-serve-thread-'));
    const httpPort = 20000 + Math.floor(Math.random() * 20000);
    const grpcPort = httpPort + 1;
    const db = join(dir, 'live.duckdb');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'bench', 'serve-child.ts'),
        'serve',
        '--http',
        `127.0.0.1:${httpPort}`,
        '--grpc',
        `127.0.0.1:${grpcPort}`,
        '--out',
        join(dir, 'bundle'),
        '--db',
        db,
        '--settle-ms',
        '50',
        '--flush-ms',
        '20',
        '--run-id',
        RUN,
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    for (let i = 0; i < 300 && !log.includes('OTLP/gRPC'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(log).toContain(`http://127.0.0.1:${httpPort}`);

    const url = `http://127.0.0.1:${httpPort}`;
    const proto = fakeAgent(new ProtoHttpExporter({ url: `${url}/v1/traces` }));
    const json = fakeAgent(new JsonHttpExporter({ url: `${url}/v1/traces` }));
    const viaGrpc = fakeAgent(new GrpcExporter({ url: `http://127.0.0.1:${grpcPort}` }));
    proto.runTrial('weather', 'p1');
    proto.runTrial('weather', 'p2', { tools: ['get_weather', 'get_weather', 'get_weather'] });
    json.runTrial('time', 'j1', { tools: ['get_time', 'get_time'] });
    json.runTrial('weather', 'j2', { fail: true });
    viaGrpc.runTrial('time', 'g1', { tools: [] });
    viaGrpc.runTrial('time', 'g2', { tools: ['get_time', 'lookup'] });
    await Promise.all([
      proto.provider.forceFlush(),
      json.provider.forceFlush(),
      viaGrpc.provider.forceFlush(),
    ]);
    let live: Summary | null = null;
    for (let i = 0; i < 200; i++) {
      live = (await (await fetch(`${url}/v1/summary`)).json()) as Summary;
      if (live.trial_count === 6) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const spans = [
      ...proto.recorded.getFinishedSpans(),
      ...json.recorded.getFinishedSpans(),
      ...viaGrpc.recorded.getFinishedSpans(),
    ];
    const fromFile = await fileSummary(spans, RUN);
    expect(fromFile.trial_count).toBe(6);
    expect(normalizedSummary(live!)).toEqual(normalizedSummary(fromFile));
    expect(await (await fetch(`${url}/v1/trials/g2`)).json()).toMatchObject({ version: 1, task_id: 'time' });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain(`evalstream_spans_received_total ${spans.length}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await Promise.all([proto.provider.shutdown(), json.provider.shutdown(), viaGrpc.provider.shutdown()]);

    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    expect(code, log).toBe(0);
    expect(log).toContain('6 trials scored');
    const bundled = JSON.parse(await readFile(join(dir, 'bundle', 'summary.json'), 'utf8')) as Summary;
    expect(normalizedSummary(bundled)).toEqual(normalizedSummary(fromFile));
    const store = await openDuckDB(db, { readOnly: true });
    const one = async (sql: string): Promise<number> =>
      Number((await store.connection.runAndReadAll(sql)).getRows()[0]![0]);
    expect(await one('SELECT count(*) FROM trials')).toBe(6);
    expect(await one('SELECT count(*) FROM spans')).toBe(spans.length);
    expect(await one('SELECT count(DISTINCT (trace_id, span_id)) FROM spans')).toBe(spans.length);
    store.close();
  });
});
