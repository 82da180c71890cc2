import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine, type LiveEngineConfig } from '../../src/serve/live-engine.js';

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

/**
 * An engine with the default metrics on a manual clock whose ticks the test drives (the timer's
 * period is long, the settle time 10 ms); `overrides` replace single configuration fields.
 */
export function manualEngine(now: () => number, overrides: Partial<LiveEngineConfig> = {}): LiveEngine {
  return new LiveEngine(
    liveEngineConfig({
      completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
      tickMs: 1000,
      ...overrides,
    }),
    createTrialPlanner({ config: parseConfig({}, 'defaults') }),
    [],
    now,
  );
}
