import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/model/summary.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import type { ServeProcess } from '../cli/serve-process.js';
import { mulberry32 } from '../../bench/mulberry32.js';
import { normalizedSummary } from '../serve/file-summary.js';
import { fakeAgent } from '../serve/fake-agent.js';
import { startServeDb } from './start-serve-db.js';

const RUN = 'agent-eval-20260101000000-0000dead';
/** Kills at seeded random moments of the sending and scoring, besides the three fixed points. */
const RANDOM_POINTS = Number(process.env['EVALSTREAM_KILL_POINTS'] ?? 2);
const SEED = Number(process.env['EVALSTREAM_KILL_SEED'] ?? 9);

/** Nine trials over three tasks, each one export, the same bytes in every run. */
const EXPORTS: Uint8Array[] = Array.from({ length: 9 }, (_, i) => {
  const agent = fakeAgent(new InMemorySpanExporter());
  agent.runTrial(`task-${i % 3}`, `trial-${i}`, { tools: i % 2 === 0 ? ['a'] : ['a', 'b'], fail: i === 4 });
  return ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
});

function startServe(dir: string): Promise<{ serve: ServeProcess; url: string }> {
  return startServeDb(dir, ['--run-id', RUN, '--settle-ms', '50']);
}

async function send(url: string, bodies: Uint8Array[]): Promise<void> {
  for (const body of bodies) {
    const res = await fetch(`${url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body,
    });
    expect(res.status).toBe(200);
  }
}

async function scored(url: string, trials: number): Promise<void> {
  for (;;) {
    const summary = (await (await fetch(`${url}/v1/summary?omit=task_metric_values`)).json()) as Summary;
    if (summary.trial_count === trials) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM');
  expect(await serve.exited, serve.log()).toBe(0);
}

/** The store's content by trial: its spans, tool calls and every score output (no ordinals). */
async function storeContent(file: string): Promise<unknown> {
  const db = await openDuckDB(file, { readOnly: true });
  const read = async (sql: string) =>
    (await db.connection.runAndReadAll(sql)).getRows().map((r) => r.map((v) => String(v)).join('|'));
  const content = {
    trials: await read('SELECT trial_id, task_id FROM trials ORDER BY trial_id'),
    spans: await read('SELECT trial_id, span_id, name FROM spans ORDER BY trial_id, span_id'),
    toolCalls: await read('SELECT trial_id, count(*) FROM tool_calls GROUP BY trial_id ORDER BY trial_id'),
    scores: await read(
      'SELECT trial_id, metric_type, output_name, num_value FROM score_outputs ORDER BY trial_id, metric_type, output_name',
    ),
    runs: await read('SELECT count(*) FROM runs'),
  };
  db.close();
  return content;
}

async function bundleSummary(dir: string): Promise<unknown> {
  return normalizedSummary(
    JSON.parse(await readFile(join(dir, 'bundle', 'summary.json'), 'utf8')) as Summary,
  );
}

describe('serve --db killed with SIGKILL, then restarted', () => {
  it('gives the store and bundle of an uninterrupted run once the unacknowledged-as-stored trials are sent again: nothing lost, nothing doubled', async () => {
    const whole = await mkdtemp(join(tmpdir(), 'evalstream-kill9-whole-'));
    let sendAndScoreMs = 0;
    {
      const { serve, url } = await startServe(whole);
      const started = performance.now();
      await send(url, EXPORTS);
      await scored(url, EXPORTS.length);
      sendAndScoreMs = performance.now() - started;
      await stop(serve);
    }
    const expectedStore = await storeContent(join(whole, 'live.duckdb'));
    const expectedSummary = await bundleSummary(whole);
    expect((expectedStore as { trials: string[] }).trials).toHaveLength(EXPORTS.length);

    // killed: right after start, with half the exports taken (not all scored or committed), with
    // every trial scored (most of them committed), and at seeded moments within the time the
    // uninterrupted run took to take and score them all, while they are sent (a sender cut off by
    // the kill stops sending)
    const random = mulberry32(SEED);
    const delays = Array.from({ length: RANDOM_POINTS }, () => Math.floor(random() * sendAndScoreMs));
    const points = ['started', 'half sent', 'all scored', ...delays.map((ms) => `${ms} ms into sending`)];
    for (const [i, point] of points.entries()) {
      const dir = await mkdtemp(join(tmpdir(), 'evalstream-kill9-'));
      const first = await startServe(dir);
      if (point === 'half sent') await send(first.url, EXPORTS.slice(0, 5));
      if (point === 'all scored') {
        await send(first.url, EXPORTS);
        await scored(first.url, EXPORTS.length);
      }
      if (i >= 3) {
        const sending = send(first.url, EXPORTS).catch((error: unknown) => {
          if (!(error instanceof TypeError)) throw error; // fetch failed: the server was killed
        });
        await new Promise((r) => setTimeout(r, delays[i - 3]));
        first.serve.child.kill('SIGKILL');
        await sending;
      }
      first.serve.child.kill('SIGKILL');
      expect(await first.serve.exited).toBeNull();

      // serve acknowledges an export on receipt, not on commit: after a crash, the sender sends again
      // what it cannot know to be stored (here: everything), and the store takes it without doubles
      const second = await startServe(dir);
      await send(second.url, EXPORTS);
      await scored(second.url, EXPORTS.length);
      await stop(second.serve);
      expect(await storeContent(join(dir, 'live.duckdb')), point).toEqual(expectedStore);
      expect(await bundleSummary(dir), point).toEqual(expectedSummary);
    }
  }, 600_000);
});
