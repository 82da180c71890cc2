import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/model/summary.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { fileSummary, normalizedSummary } from '../serve/file-summary.js';
import { sendMixedExporterTrials } from '../serve/mixed-exporter-trials.js';
import { boundPorts, startCliProcess } from './serve-process.js';

const RUN = 'agent-eval-20260101000000-0000beef';

describe('evalstream serve as a process', () => {
  it('scores what the real OTel exporters send (proto, JSON, gRPC) as `score` scores the same spans; bundle and DuckDB agree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-serve-exporters-'));
    const db = join(dir, 'live.duckdb');
    const serve = await startCliProcess([
      'serve',
      '--http',
      '127.0.0.1:0',
      '--grpc',
      '127.0.0.1:0',
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
    ]);
    const { http: httpPort, grpc: grpcPort } = boundPorts(serve.log());
    expect(httpPort, serve.log()).not.toBeNull();

    const url = `http://127.0.0.1:${httpPort}`;
    const sent = await sendMixedExporterTrials(url, `http://127.0.0.1:${grpcPort}`);
    let live: Summary | null = null;
    for (let i = 0; i < 200; i++) {
      live = (await (await fetch(`${url}/v1/summary`)).json()) as Summary;
      if (live.trial_count === 6) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const spans = sent.spans;
    const fromFile = await fileSummary(spans, RUN);
    expect(fromFile.trial_count).toBe(6);
    expect(normalizedSummary(live!)).toEqual(normalizedSummary(fromFile));
    expect(await (await fetch(`${url}/v1/trials/g2`)).json()).toMatchObject({ version: 1, task_id: 'time' });
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toContain(`evalstream_spans_received_total ${spans.length}`);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await sent.shutdown();

    serve.child.kill('SIGTERM');
    const code = await Promise.race([
      serve.exited,
      new Promise((r) => setTimeout(() => r('timeout'), 30_000)),
    ]);
    expect(code, serve.log()).toBe(0);
    expect(serve.log()).toContain('6 trials scored');
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
