import { describe, expect, it } from 'vitest';
import type { OtlpExportRequest, OtlpSpan } from '../../src/evidence/otlp/otlp-types.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { Sink } from '../../src/sinks/sink.js';
import { fakeSpan } from './fake-span.js';
import { summaryOfKept } from './file-summary.js';
import { liveEngineConfig, manualEngine } from './live-engine-config.js';

function request(n: number, task?: string, spanId = '00000000000000a1'): OtlpExportRequest {
  const span = fakeSpan({
    traceId: n.toString(16).padStart(32, '0'),
    spanId,
    name: 'invoke_agent bot',
    attrs: {
      'gen_ai.conversation.id': `conv-${n}`,
      'gen_ai.operation.name': 'invoke_agent',
      ...(task === undefined ? {} : { 'nemo.test_case.name': task }),
    },
  });
  return spanRequest(span);
}

/** A request of one span. */
function spanRequest(span: OtlpSpan): OtlpExportRequest {
  return {
    resourceSpans: [
      {
        resource: span.resource,
        scopeSpans: [{ scope: span.scope, spans: [span], schemaUrl: '' }],
        schemaUrl: '',
      },
    ],
    logRecords: [],
  };
}

describe('LiveEngine', () => {
  it('scores due trials in slices of event-loop turns, so receivers are served in between', async () => {
    let now = 0;
    const engine = manualEngine(() => now, { maxPendingTrials: 100_000 });
    const trials = 2000;
    for (let n = 1; n <= trials; n++)
      expect(engine.acceptRequest(request(n))).toMatchObject({ rejectedSpans: 0 });
    engine.tick(); // assembled at time 0
    now = 100;
    engine.tick(); // all of them are due now
    // the next turn of the event loop comes while scoring is still under way
    await new Promise((resolve) => setImmediate(resolve));
    const scoredAtFirstTurn = engine.metrics.trialsScored;
    expect(scoredAtFirstTurn).toBeGreaterThan(0);
    expect(scoredAtFirstTurn).toBeLessThan(trials);
    await engine.whenIdle();
    expect(engine.metrics.trialsScored).toBe(trials);
    expect(engine.summary().trial_count).toBe(trials);
  });

  it('builds and plans a completed trial as its scoring starts, not all due trials in the completion tick', async () => {
    let now = 0;
    const plan = createTrialPlanner({ config: parseConfig({}, 'defaults') });
    let planned = 0;
    const config = liveEngineConfig({
      completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
      maxPendingTrials: 100_000,
      tickMs: 1000,
    });
    const engine = new LiveEngine(
      config,
      (item) => {
        planned += 1;
        return plan(item);
      },
      [],
      () => now,
    );
    const trials = 500;
    for (let n = 1; n <= trials; n++)
      expect(engine.acceptRequest(request(n))).toMatchObject({ rejectedSpans: 0 });
    engine.tick();
    now = 100;
    engine.tick(); // every trial is due
    expect(planned).toBeLessThanOrEqual(config.concurrency);
    await engine.whenIdle();
    expect(planned).toBe(trials);
    expect(engine.summary().trial_count).toBe(trials);
  });

  it('gives the sinks and the live state a trial scored after the idle timeout with its completion note once', async () => {
    let now = 0;
    const written: ScoredTrial[] = [];
    const sink: Sink<ScoredTrial> = {
      write: async (scored) => void written.push(scored),
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
    const engine = new LiveEngine(
      liveEngineConfig({
        completion: { settleMs: 10, idleTimeoutMs: 50, endMarkerAttribute: null },
        tickMs: 1000,
      }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [sink],
      () => now,
    );
    const chat = fakeSpan({
      traceId: '000000000000000000000000000000c1',
      spanId: '00000000000000c1',
      name: 'chat m',
      attrs: { 'gen_ai.conversation.id': 'conv-idle', 'gen_ai.operation.name': 'chat' },
    });
    expect(engine.acceptRequest(spanRequest(chat))).toMatchObject({ rejectedSpans: 0 });
    engine.tick();
    now = 100;
    engine.tick();
    await engine.whenIdle();
    const notes = (scored: ScoredTrial): number[] =>
      scored.scores.map(
        (s) => s.diagnostics.filter((d) => d.details?.['completion'] === 'idle-timeout').length,
      );
    expect(written).toHaveLength(1);
    expect(notes(written[0]!).every((n) => n === 1)).toBe(true);
    expect(notes(engine.finalTrials()[0]!).every((n) => n === 1)).toBe(true);
    expect(written[0]!.scores.length).toBeGreaterThan(0);
  });

  it('keeps the summary up to date as trials are scored (and rebuilds it after a re-scoring): always buildSummary of the kept trials', async () => {
    let now = 0;
    const engine = manualEngine(() => now, { maxPendingTrials: 100_000 });
    // the definition: buildSummary over every trial's latest version, tasks in first-scored order
    const reference = () => summaryOfKept(engine.finalTrials());
    const score = async (requests: OtlpExportRequest[]) => {
      for (const r of requests) engine.acceptRequest(r);
      engine.tick();
      now += 100;
      engine.tick();
      await engine.whenIdle();
    };
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    await score(range(1, 30).map((n) => request(n, `task-${n % 4}`)));
    const first = engine.summary();
    const firstText = JSON.stringify(first);
    expect(first).toEqual(reference());
    await score(range(31, 60).map((n) => request(n, `task-${n % 7}`)));
    // the summary without its per-trial records (the live page's), read first: its own snapshot
    expect(engine.summaryWithoutTaskValues()).toEqual({ ...reference(), task_metric_values: {} });
    const second = engine.summary();
    expect(second.trial_count).toBe(60);
    expect(second).toEqual(reference());
    // a late span re-scores conv-5, alongside new trials
    await score([
      request(5, 'task-1', '00000000000000b2'),
      ...range(61, 70).map((n) => request(n, 'task-9')),
    ]);
    expect(engine.metrics.trialsRescored).toBe(1);
    const third = engine.summary();
    expect(third.trial_count).toBe(70);
    expect(third).toEqual(reference());
    await score(range(71, 75).map((n) => request(n, 'task-2')));
    expect(engine.summary()).toEqual(reference());
    // after a full read, the light one is the same summary without its records
    expect(engine.summaryWithoutTaskValues()).toEqual({ ...reference(), task_metric_values: {} });
    // a summary handed out earlier is not changed by what came later
    expect(JSON.stringify(first)).toBe(firstText);
  });

  it('joins the traces of one conversation into one trial (task key from any of them) and seals them together', async () => {
    let now = 0;
    const engine = manualEngine(() => now, { retainMs: 1000 });
    const turn = (trace: string, spanId: string, attrs: Record<string, string>): OtlpExportRequest => {
      const span = fakeSpan({
        traceId: trace.padStart(32, '0'),
        spanId: spanId.padStart(16, '0'),
        name: 'invoke_agent bot',
        attrs: { 'gen_ai.operation.name': 'invoke_agent', ...attrs },
      });
      return spanRequest(span);
    };
    const settle = async (): Promise<void> => {
      engine.tick();
      now += 100;
      engine.tick();
      await engine.whenIdle();
    };
    // turn 1 carries no task key: the trial is its own task until turn 2 names one
    engine.acceptRequest(turn('a1', 'a1', { 'gen_ai.conversation.id': 'conv-x' }));
    await settle();
    expect(engine.trialJson('conv-x')).toMatchObject({ task_id: 'conv-x', version: 1 });
    // a sub-agent's span (ended, so sent, first) with its own conversation id, deeper in turn 2, does
    // not move the turn's spans: the shallowest span's id wins
    const sub = fakeSpan({
      traceId: 'a2'.padStart(32, '0'),
      spanId: 'b2'.padStart(16, '0'),
      parentSpanId: 'b1'.padStart(16, '0'),
      attrs: { 'gen_ai.conversation.id': 'conv-sub' },
    });
    engine.acceptRequest(spanRequest(sub));
    engine.acceptRequest(
      turn('a2', 'b1', { 'gen_ai.conversation.id': 'conv-x', 'nemo.test_case.name': 'task-7' }),
    );
    await settle();
    expect(engine.trialJson('conv-x')).toMatchObject({ task_id: 'task-7', version: 2 });
    expect(engine.trialJson('conv-sub')).toBeUndefined();
    expect(engine.finalTrials()).toHaveLength(1);
    // past retainMs both traces are sealed: late spans for either are refused
    now += 2000;
    engine.tick();
    expect(engine.acceptRequest(turn('a1', 'c1', {}))).toMatchObject({ rejectedSpans: 1 });
    expect(engine.acceptRequest(turn('a2', 'c2', {}))).toMatchObject({ rejectedSpans: 1 });
    expect(engine.finalTrials()).toHaveLength(1);
  });
});
