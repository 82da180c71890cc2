import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { BodyArena } from '../../src/serve/body-arena.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';

function engineOn(now: () => number): LiveEngine {
  return new LiveEngine(
    liveEngineConfig({
      completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
      tickMs: 1000,
      retainMs: 60_000,
    }),
    createTrialPlanner({ config: parseConfig({}, 'defaults') }),
    [],
    now,
  );
}

const encode = (spans: ReadableSpan[]): Buffer =>
  Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);

/** Trials of two tool calls each, as two bodies: all spans but the `lookup` tool span, and that span. */
function splitTrials(trials: number): { first: Buffer[]; late: Buffer[] } {
  const agent = fakeAgent(new InMemorySpanExporter());
  const first: Buffer[] = [];
  const late: Buffer[] = [];
  for (let i = 0; i < trials; i++) {
    agent.recorded.reset();
    agent.runTrial(`task-${i % 3}`, `trial-${i}`, { tools: ['get_weather', 'lookup'] });
    const spans = agent.recorded.getFinishedSpans();
    const withheld = spans.findIndex((s) => s.name === 'execute_tool lookup');
    first.push(encode(spans.filter((_, j) => j !== withheld)));
    late.push(encode([spans[withheld]!]));
  }
  return { first, late };
}

/**
 * Two engines on one manual clock: `pooled` takes bodies through the receivers' handler and a body
 * arena of slabs ten bodies large; `whole`, the oracle, keeps each body whole in its reloader's
 * closure, as before the arena. `send` gives both the same body.
 */
function pooledAndWhole(largest: number) {
  const clock = { now: 0 };
  const pooled = engineOn(() => clock.now);
  const arena = new BodyArena({ slabBytes: largest * 10, largestPooled: largest });
  const viaArena = decodingBodyHandler(pooled, decodeExportRequest, arena);
  const whole = engineOn(() => clock.now);
  const accepted = { rejectedSpans: 0, errorMessage: '' };
  const send = (body: Buffer): void => {
    expect(viaArena.acceptBody(Buffer.from(body), 'protobuf')).toEqual(accepted);
    const copy = Buffer.from(body);
    expect(
      whole.accept(decodeExportRequest(copy, 'protobuf'), () => decodeExportRequest(copy, 'protobuf')),
    ).toEqual(accepted);
  };
  return { clock, pooled, whole, arena, send };
}

describe('retained request bodies (BodyArena behind the live engine)', () => {
  it('scores trials whose slabs were emptied and refilled while their spans waited, as from whole bodies', async () => {
    // Every trial's body is followed at once by nine duplicates of it (released as soon as they are
    // assembled), before anything is scored: each slab holds one waiting trial's body among nine
    // released ones. Its decoded spans read the slab in place, so the slab must not be emptied out
    // and reused under them; the trials are scored only after all of them were sent.
    const trials = 12;
    const { first } = splitTrials(trials);
    const { clock, pooled, whole, arena, send } = pooledAndWhole(Math.max(...first.map((b) => b.byteLength)));
    for (const body of first) {
      for (let d = 0; d < 10; d++) {
        send(body);
        pooled.tick(); // assembled (duplicates dropped, their bodies released) but not due yet
        whole.tick();
      }
    }
    expect(arena.slabsCreated).toBeGreaterThanOrEqual(trials); // no slab was reused under waiting spans
    clock.now += 100;
    for (const engine of [pooled, whole]) {
      engine.tick();
      await engine.whenIdle();
    }
    expect(pooled.metrics.trialsScored).toBe(trials);
    expect(pooled.summary()).toEqual(whole.summary());
    await pooled.shutdown();
    await whole.shutdown();
  });

  it('re-scores trials from bodies kept in small, reused slabs exactly as from bodies kept whole', async () => {
    // Each trial is sent without one of its tool spans, then re-sent whole nine times (duplicates:
    // those copies are held by no trial and released at once), so each slab ends up holding one
    // trial's body among nine released ones and is emptied out and reused. The missing spans come
    // last: every trial is re-scored from its kept body, read back after its slab was reused.
    const trials = 12;
    const { first, late } = splitTrials(trials);
    const { clock, pooled, whole, arena, send } = pooledAndWhole(Math.max(...first.map((b) => b.byteLength)));
    const settle = async (): Promise<void> => {
      for (const engine of [pooled, whole]) engine.tick();
      clock.now += 100;
      for (const engine of [pooled, whole]) {
        engine.tick();
        await engine.whenIdle();
      }
    };

    for (const body of first) {
      send(body);
      await settle();
      for (let d = 0; d < 9; d++) send(body);
      await settle();
    }
    expect(pooled.metrics.trialsScored).toBe(trials);
    expect(pooled.metrics.spansDuplicate).toBeGreaterThan(0);
    const slabsBeforeLate = arena.slabsCreated;
    expect(slabsBeforeLate).toBeLessThan(trials); // slabs were reused
    for (const body of late) send(body);
    await settle();

    expect(pooled.metrics.trialsRescored).toBe(trials);
    expect(whole.metrics.trialsRescored).toBe(trials);
    for (let i = 0; i < trials; i++) {
      const trial = pooled.trialJson(`trial-${i}`) as { version: number };
      expect(trial.version).toBe(2);
      expect(trial).toEqual(whole.trialJson(`trial-${i}`));
    }
    expect(pooled.summary()).toEqual(whole.summary());
    await Promise.all([pooled.shutdown(), whole.shutdown()]);
    const [pooledTrials, wholeTrials] = [pooled.finalTrials(), whole.finalTrials()];
    expect(pooledTrials.map((t) => t.scores)).toEqual(wholeTrials.map((t) => t.scores));
    // nothing holds a body any more: every slab is free or was left to the collector
    expect(arena.slabs.inUse).toBeLessThanOrEqual(1);
  });
});
