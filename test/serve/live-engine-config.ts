import type { LiveEngineConfig } from '../../src/serve/live-engine.js';

/**
 * The live engine configuration the serve tests start from: NeMo trial and task keys, roomy queues,
 * four concurrent scorings, short settle and tick times; `overrides` replace single fields.
 */
export function liveEngineConfig(overrides: Partial<LiveEngineConfig> = {}): LiveEngineConfig {
  return {
    runId: 'agent-eval-20260101000000-00000000',
    completion: { settleMs: 50, idleTimeoutMs: 60_000, endMarkerAttribute: null },
    trialKeys: ['gen_ai.conversation.id'],
    taskKeys: ['nemo.test_case.name'],
    maxQueuedSpans: 100_000,
    maxPendingTrials: 1000,
    concurrency: 4,
    metricTimeoutMs: 0,
    retryAfterSec: 1,
    tickMs: 10,
    retainMs: 60_000,
    ...overrides,
  };
}
