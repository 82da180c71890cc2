import { describe, expect, it } from 'vitest';
import { agentTrialPayloads } from '../../bench/agent-trial-payloads.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { BodyArena } from '../../src/serve/body-arena.js';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { liveEngineConfig } from './live-engine-config.js';

describe('BodyArena', () => {
  it('reuses a slab only once every body in it is released: a held body is never overwritten', () => {
    const arena = new BodyArena({ slabBytes: 1024, largestPooled: 256, freeSlabs: 2 });
    const first = [1, 2, 3, 4].map((v) => arena.take(200).fill(v));
    const kept = first[1]!;
    for (const bytes of first) if (bytes !== kept) arena.release(bytes);
    for (let i = 0; i < 50; i++) arena.release(arena.take(200).fill(0xee));
    expect(kept.every((b) => b === 2)).toBe(true);
    // the slab holding `kept` waits; the others are reused over and over
    expect(arena.slabsCreated).toBe(2);
    expect(arena.heldBodies).toBe(1);
    const body = arena.bodyOf(kept)!;
    body.hold();
    body.release();
    expect(body.held).toBe(true);
    body.release();
    expect(body.held).toBe(false);
    expect(arena.bodyOf(kept)).toBeUndefined();
    expect(() => body.release()).toThrow(/released more often than held/);
    // a body larger than `largestPooled` has its own bytes, counted the same way
    const large = arena.take(300);
    expect(arena.slabsCreated).toBe(2);
    expect(arena.bodyOf(large)?.held).toBe(true);
    arena.release(large);
    expect(arena.heldBodies).toBe(0);
  });

  it('keeps the bodies of retained trials while reusing the rest: late spans re-score a trial from its own bytes', async () => {
    const { payload } = agentTrialPayloads(4);
    const perBody = 3;
    const bodies = Array.from({ length: 24 }, (_, b) =>
      Buffer.concat(Array.from({ length: perBody }, (_, i) => payload(b * perBody + i + 1))),
    );
    const late = (n: number): Buffer =>
      Buffer.from(
        JSON.stringify({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: n.toString(16).padStart(32, '0'),
                      spanId: 'feedfacefeedface',
                      name: 'late tool call',
                      startTimeUnixNano: '1700000000000000000',
                      endTimeUnixNano: '1700000000000000001',
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
    const slabBytes = 2 * bodies[0]!.length + 1024;
    /** Runs the same exports through an engine, with or without an arena; returns what it scored. */
    const run = async (arena: BodyArena | undefined) => {
      let now = 0;
      const engine = new LiveEngine(
        liveEngineConfig({
          completion: { settleMs: 10, idleTimeoutMs: 60_000, endMarkerAttribute: null },
          tickMs: 1000,
          retainMaxTrials: 6,
        }),
        createTrialPlanner({ config: parseConfig({}, 'defaults') }),
        [],
        () => now,
      );
      const handler = decodingBodyHandler(engine, arena);
      const send = (bytes: Buffer, encoding: 'protobuf' | 'json') => {
        // as the receiver does: the body in the arena, held by the receiver while it is handed over
        let received = bytes;
        if (arena !== undefined) {
          received = arena.take(bytes.length);
          bytes.copy(received);
        }
        const outcome = handler.acceptBody(received, encoding);
        arena?.release(received);
        return outcome;
      };
      for (const body of bodies) {
        expect(send(body, 'protobuf')).toEqual({ rejectedSpans: 0, errorMessage: '' });
        engine.tick();
        now += 100;
        engine.tick();
        await engine.whenIdle();
        engine.tick();
      }
      // the last six trials are retained (their bodies held), the ones before are sealed
      expect(send(late(70), 'json')).toEqual({ rejectedSpans: 0, errorMessage: '' });
      expect(send(late(3), 'json')).toMatchObject({ rejectedSpans: 1 });
      engine.tick();
      now += 100;
      engine.tick();
      await engine.whenIdle();
      await engine.shutdown();
      return {
        trials: engine.finalTrials().map((t) => ({ id: t.item.trial.id, scores: t.scores })),
        late: engine.trialJson('conv-0000000000000000070'),
      };
    };
    const arena = new BodyArena({ slabBytes, largestPooled: slabBytes, freeSlabs: 2 });
    const withArena = await run(arena);
    const without = await run(undefined);
    expect(withArena.late).toMatchObject({ version: 2, completion: 'late-spans' });
    expect(withArena).toEqual(without);
    // slabs were reused (24 bodies, two to a slab), and nothing is held once the run is over
    expect(arena.slabsCreated).toBeLessThan(6);
    expect(arena.heldBodies).toBe(0);
  });
});
