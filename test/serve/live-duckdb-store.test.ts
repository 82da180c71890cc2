import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveDuckDBStore } from '../../src/serve/live-duckdb-store.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { fakeAgent } from './fake-agent.js';

const RUN = 'agent-eval-20260101000000-00000000';

/** Runs trials through a LiveEngine writing to a LiveDuckDBStore; returns the spans sent per trial. */
async function runLive(
  file: string,
  turns: { trial: string; tools: string[] }[],
  oneBatch = false,
): Promise<number> {
  let now = 0;
  const flushMs = oneBatch ? 600_000 : 5;
  const store = new LiveDuckDBStore(file, { runId: RUN, flushMs, maxBufferedSpans: 10_000 });
  await store.open();
  const engine = new LiveEngine(
    {
      runId: RUN,
      completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
      trialKeys: ['gen_ai.conversation.id'],
      taskKeys: ['nemo.test_case.name'],
      maxQueuedSpans: 100_000,
      maxPendingTrials: 1000,
      concurrency: 2,
      metricTimeoutMs: 0,
      retryAfterSec: 1,
      tickMs: 10,
      retainMs: 60_000,
    },
    createTrialPlanner({ config: parseConfig({}, 'defaults') }),
    [store],
    () => now,
  );
  let sent = 0;
  for (const turn of turns) {
    const agent = fakeAgent(new InMemorySpanExporter());
    agent.runTrial('t', turn.trial, { tools: turn.tools });
    const spans = agent.recorded.getFinishedSpans();
    sent += spans.length;
    const outcome = engine.acceptRequest(
      decodeExportRequest(ProtobufTraceSerializer.serializeRequest(spans)!, 'protobuf'),
    );
    expect(outcome).toEqual({ rejectedSpans: 0, errorMessage: '' });
    engine.tick();
    now += 100;
    engine.tick(); // settled: scored (again), then written by the store's next batch
    await engine.whenIdle();
    if (!oneBatch) await store.flush();
  }
  await engine.shutdown();
  await store.shutdown();
  return sent;
}

async function counts(file: string): Promise<Record<string, number>> {
  const db = await openDuckDB(file, { readOnly: true });
  const out: Record<string, number> = {};
  for (const [name, sql] of [
    ['trials', 'SELECT count(*) FROM trials'],
    ['spans', 'SELECT count(*) FROM spans'],
    ['distinctSpans', 'SELECT count(DISTINCT (trace_id, span_id)) FROM spans'],
    ['toolCalls', 'SELECT count(*) FROM tool_calls'],
    ['scores', 'SELECT count(*) FROM scores'],
    ['metrics', 'SELECT count(DISTINCT metric_type) FROM scores'],
    ['runs', 'SELECT count(*) FROM runs'],
    ['tasks', 'SELECT count(*) FROM tasks'],
    [
      'toolCallsOutput',
      "SELECT max(num_value) FROM score_outputs WHERE metric_type = 'trajectory_stats' AND output_name = 'tool_calls'",
    ],
  ] as const) {
    out[name] = Number((await db.connection.runAndReadAll(sql)).getRows()[0]![0]);
  }
  db.close();
  return out;
}

describe('LiveDuckDBStore', () => {
  it('keeps exactly the latest version of a re-scored trial', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'evalstream-live-store-')), 'live.duckdb');
    // one conversation in two turns (two traces): scored after the first, re-scored after the second
    const sent = await runLive(file, [
      { trial: 'conv', tools: ['a'] },
      { trial: 'conv', tools: ['b', 'c'] },
      { trial: 'other', tools: [] },
    ]);
    const c = await counts(file);
    expect(c.trials).toBe(2);
    expect(c.spans).toBe(sent);
    expect(c.distinctSpans).toBe(sent);
    expect(c.toolCalls).toBe(3);
    expect(c.scores).toBe(2 * c.metrics!);
    expect(c.toolCallsOutput).toBe(3);
    expect(c.runs).toBe(1);
    expect(c.tasks).toBe(1);
  });

  it('writes only the latest version of a trial re-scored within one batch', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'evalstream-live-store-')), 'live.duckdb');
    const sent = await runLive(
      file,
      [
        { trial: 'conv', tools: ['a'] },
        { trial: 'other', tools: ['x'] },
        { trial: 'conv', tools: ['b', 'c'] },
      ],
      true,
    );
    const c = await counts(file);
    expect(c.trials).toBe(2);
    expect(c.spans).toBe(sent);
    expect(c.distinctSpans).toBe(sent);
    expect(c.toolCalls).toBe(4);
    expect(c.scores).toBe(2 * c.metrics!);
    expect(c.toolCallsOutput).toBe(3);
    expect(c.tasks).toBe(1);
  });

  it('replaces, not duplicates, trials of a resumed run id', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'evalstream-live-store-')), 'live.duckdb');
    const first = await runLive(file, [{ trial: 'conv', tools: ['a'] }]);
    const before = await counts(file);
    expect(before.spans).toBe(first);
    await runLive(file, [{ trial: 'conv', tools: ['a', 'b'] }]);
    const after = await counts(file);
    expect(after.trials).toBe(1);
    expect(after.toolCalls).toBe(2);
    expect(after.scores).toBe(before.scores);
    expect(after.runs).toBe(1);
    expect(after.tasks).toBe(1);
  });
});
