import { parseConfig } from '../src/config/parse-config.js';
import { createTrialPlanner } from '../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../src/serve/live-engine.js';

/**
 * The `LiveEngine` the serve benches drive without HTTP: serve's default metrics, the bench trials'
 * trial and task keys (`agent-trial-payloads.ts`), unbounded queues, 8 scorings at once, a tick
 * every 50 ms of the given clock, at most 20,000 retained trials, no sinks.
 *
 * @example
 * let now = 0;
 * const engine = benchLiveEngine({ settleMs: 200, retainMs: 300000 }, () => now);
 */
export function benchLiveEngine(
  times: { settleMs: number; retainMs: number },
  clock: () => number,
): LiveEngine {
  const planner = createTrialPlanner({ config: parseConfig({}, 'defaults'), onWarning: () => undefined });
  return new LiveEngine(
    {
      runId: 'bench',
      completion: { settleMs: times.settleMs, idleTimeoutMs: 300000, endMarkerAttribute: null },
      trialKeys: ['gen_ai.conversation.id'],
      taskKeys: ['nemo.test_case.name'],
      maxQueuedSpans: Number.MAX_SAFE_INTEGER,
      maxPendingTrials: Number.MAX_SAFE_INTEGER,
      concurrency: 8,
      metricTimeoutMs: 0,
      retryAfterSec: 1,
      tickMs: 50,
      retainMs: times.retainMs,
      retainMaxTrials: 20000,
    },
    planner,
    [],
    clock,
  );
}
