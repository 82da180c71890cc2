import { parseConfig } from '../src/config/parse-config.js';
import { createTrialPlanner } from '../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../src/serve/live-engine.js';
import type { BodyHandler } from '../src/serve/serve-types.js';

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

/**
 * Feeds `bodies` to `engine` as serve does with request bodies it has read: through `handler` (the
 * receivers' body handler: decoding, `acceptRequest`), the clock moved 1 ms per body by
 * `advance`, a tick every `tickEvery` bodies (default 50) and a turn of the event loop after it (for
 * scorings to run).
 * Throws if a body is refused.
 *
 * @example
 * await feedBodies(engine, decodingBodyHandler(engine), bodies, (ms) => (now += ms));
 */
export async function feedBodies(
  engine: LiveEngine,
  handler: BodyHandler,
  bodies: Iterable<Buffer>,
  advance: (ms: number) => void,
  tickEvery = 50,
): Promise<void> {
  let i = 0;
  for (const body of bodies) {
    // synchronous, as serve's body handler is: bodies are taken 50 at a time
    const outcome = handler.acceptBody(body, 'protobuf');
    if (outcome instanceof Promise) throw new Error('feedBodies needs a synchronous body handler');
    if ('saturated' in outcome || 'undecodable' in outcome) throw new Error('engine refused a body');
    advance(1);
    if (i % tickEvery === tickEvery - 1) {
      engine.tick();
      await new Promise((r) => setImmediate(r));
    }
    i += 1;
  }
}
