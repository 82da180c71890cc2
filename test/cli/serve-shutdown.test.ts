import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { fakeAgent } from '../serve/fake-agent.js';
import { boundPorts, startCliProcess } from './serve-process.js';

describe('evalstream serve shutdown', () => {
  it('on SIGTERM scores what is complete, flushes open trials, writes the bundle and exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-serve-'));
    const serve = await startCliProcess([
      'serve',
      '--http',
      '127.0.0.1:0',
      '--no-grpc',
      '--out',
      join(dir, 'bundle'),
      '--settle-ms',
      '50',
      '--run-id',
      'agent-eval-20260101000000-0000abcd',
    ]);
    const port = boundPorts(serve.log()).http;
    expect(port, serve.log()).not.toBeNull();

    const agent = fakeAgent(new OTLPTraceExporter({ url: 'http://127.0.0.1:9/unused' }));
    agent.runTrial('t', 'done');
    agent.runTrial('t', 'still-open', { end: false });
    const body = JsonTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
    const res = await fetch(`http://127.0.0.1:${port}/v1/traces`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    for (let i = 0; i < 100; i++) {
      const summary = (await (await fetch(`http://127.0.0.1:${port}/v1/summary`)).json()) as {
        trial_count: number;
      };
      if (summary.trial_count === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    serve.child.kill('SIGTERM');
    const code = await Promise.race([
      serve.exited,
      new Promise((r) => setTimeout(() => r('timeout'), 30_000)),
    ]);
    expect(code, serve.log()).toBe(0);
    const summary = JSON.parse(await readFile(join(dir, 'bundle', 'summary.json'), 'utf8')) as {
      trial_count: number;
    };
    expect(summary.trial_count).toBe(2);
    const scores = (await readFile(join(dir, 'bundle', 'scores.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { trial_id: string; diagnostics: { details: Record<string, string> }[] });
    const open = scores.filter((s) => s.trial_id === 'still-open');
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((s) => s.diagnostics.some((d) => d.details['completion'] === 'shutdown'))).toBe(true);
    expect(serve.log()).toContain('2 trials scored');
    await agent.provider.shutdown();
  });
});
