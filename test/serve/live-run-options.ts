import type { LiveRunOptions } from '../../src/serve/open-live-run.js';

/**
 * The live run options the engine-thread tests start from: run `agent-eval-20260101000000-00000000`,
 * no config, bundle or store, NeMo keys, roomy queues, a 20 ms settle; `overrides` replace fields.
 *
 * @example
 * const engine = await EngineThread.start(liveRunOptions({ concurrency: 1 }));
 */
export function liveRunOptions(overrides: Partial<LiveRunOptions> = {}): LiveRunOptions {
  return {
    runId: 'agent-eval-20260101000000-00000000',
    configFile: null,
    out: null,
    db: null,
    settleMs: 20,
    idleTimeoutMs: 60_000,
    endMarker: null,
    maxQueuedSpans: 100_000,
    maxPendingTrials: 1000,
    concurrency: 4,
    retainMs: 60_000,
    retainMaxTrials: 20_000,
    flushMs: 50,
    trialKeys: ['gen_ai.conversation.id'],
    taskKeys: ['nemo.test_case.name'],
    report: false,
    stopWhenWidth: null,
    ...overrides,
  };
}
