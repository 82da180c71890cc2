import { describe, expect, it } from 'vitest';
import type { OtlpResourceSpans } from '../../src/evidence/otlp/otlp-types.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { fakeSpan } from './fake-span.js';

function request(n: number): OtlpResourceSpans[] {
  const span = fakeSpan({
    traceId: n.toString(16).padStart(32, '0'),
    spanId: '00000000000000a1',
    name: 'invoke_agent bot',
    attrs: { 'gen_ai.conversation.id': `conv-${n}`, 'gen_ai.operation.name': 'invoke_agent' },
  });
  return [
    {
      resource: span.resource,
      scopeSpans: [{ scope: span.scope, spans: [span], schemaUrl: '' }],
      schemaUrl: '',
    },
  ];
}

describe('LiveEngine', () => {
  it('scores due trials in slices of event-loop turns, so receivers are served in between', async () => {
    let now = 0;
    const engine = new LiveEngine(
      {
        runId: 'agent-eval-20260101000000-00000000',
        completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
        trialKeys: ['gen_ai.conversation.id'],
        taskKeys: ['nemo.test_case.name'],
        maxQueuedSpans: 100_000,
        maxPendingTrials: 100_000,
        concurrency: 4,
        metricTimeoutMs: 0,
        retryAfterSec: 1,
        tickMs: 1000,
        retainMs: 60_000,
      },
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [],
      () => now,
    );
    const trials = 2000;
    for (let n = 1; n <= trials; n++) expect(engine.accept(request(n))).toMatchObject({ rejectedSpans: 0 });
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
});
