import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { fakeAgent } from '../serve/fake-agent.js';
import { queryJson } from '../cli/run-cli.js';
import { readJsonl } from './read-jsonl.js';
import { startServeDb } from './start-serve-db.js';

// Threat: a sink of `serve` that fails (here the --emit-otlp receiver refusing every connection)
// wedging the server: exports answered 429 forever, nothing logged, a shutdown that hangs, trials
// never reaching the store or the bundle.
const TRIALS = ['a', 'b', 'c', 'd'];

function exportOf(trial: string): Uint8Array {
  const agent = fakeAgent(new InMemorySpanExporter());
  agent.runTrial('t', trial);
  return ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value) || i === 1200) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('serve --db with a sink that fails', () => {
  it('says so at /healthz and once in the log, goes on taking exports, stores and writes every trial, exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'es-failing-sink-'));
    // port 9 (discard) is closed: every send of the emitter is refused
    const { serve, url } = await startServeDb(dir, [
      '--settle-ms',
      '0',
      '--emit-otlp',
      'http://127.0.0.1:9/v1/logs',
    ]);
    try {
      for (const trial of TRIALS) {
        const res = await fetch(`${url}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body: exportOf(trial),
        });
        expect(res.status, trial).toBe(200);
      }
      const health = await poll(
        async () => {
          const res = await fetch(`${url}/healthz`);
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        },
        (h) => h.status === 503,
      );
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({
        status: 'unhealthy',
        problem: expect.stringContaining('http://127.0.0.1:9/v1/logs') as unknown,
      });
      // the server is not wedged: a later export is taken and scored
      const later = await fetch(`${url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf' },
        body: exportOf('e'),
      });
      expect(later.status).toBe(200);
      const scored = await poll(
        async () =>
          (
            (await (await fetch(`${url}/v1/summary?omit=task_metric_values`)).json()) as {
              trial_count: number;
            }
          ).trial_count,
        (n) => n === TRIALS.length + 1,
      );
      expect(scored).toBe(TRIALS.length + 1);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited, serve.log()).toBe(1);
    const errors = serve
      .log()
      .split('\n')
      .filter((l) => l.startsWith('evalstream serve: error:'));
    expect(errors, serve.log()).toHaveLength(1);
    expect(errors[0]).toContain('http://127.0.0.1:9/v1/logs');
    const ids = [...TRIALS, 'e'];
    expect(
      readJsonl(join(dir, 'bundle', 'trials.jsonl'))
        .map((t) => t['id'])
        .sort(),
    ).toEqual(ids);
    const rows = await queryJson(join(dir, 'live.duckdb'), 'select trial_id from trials order by trial_id');
    expect(rows.map((r) => r['trial_id'])).toEqual(ids);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});
