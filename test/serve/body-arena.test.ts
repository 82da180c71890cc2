import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyArena, type RetainedBody } from '../../src/serve/body-arena.js';

function bytes(n: number, fill: number): Uint8Array {
  return new Uint8Array(n).fill(fill & 0xff);
}

describe('BodyArena', () => {
  it('copies small bodies into one slab, keeps large ones as they are', () => {
    const arena = new BodyArena({ slabBytes: 1024 });
    const a = arena.store(bytes(100, 1));
    const b = arena.store(bytes(100, 2));
    expect(arena.slabsCreated).toBe(1);
    expect(a.bytes.buffer).toBe(b.bytes.buffer);
    expect([...a.bytes]).toEqual([...bytes(100, 1)]);
    expect([...b.bytes]).toEqual([...bytes(100, 2)]);
    const large = Buffer.from(bytes(200, 3)); // over slabBytes / 8
    expect(arena.store(large).bytes).toBe(large);
    expect(arena.slabsCreated).toBe(1);
  });

  it('reuses a full slab once every body in it is released', () => {
    const arena = new BodyArena({ slabBytes: 64, largestPooled: 64 });
    const first = arena.store(bytes(40, 1));
    const second = arena.store(bytes(40, 2)); // does not fit: a second slab, the first is full
    expect(arena.slabsCreated).toBe(2);
    first.release();
    const third = arena.store(bytes(40, 3)); // the second slab is full too: the first one is reused
    expect(arena.slabsCreated).toBe(2);
    expect(third.bytes.buffer).toBe(first.bytes.buffer);
    expect([...second.bytes]).toEqual([...bytes(40, 2)]);
    expect([...third.bytes]).toEqual([...bytes(40, 3)]);
  });

  it('moves the last bodies out of a nearly empty full slab, and reuses it', () => {
    const arena = new BodyArena({ slabBytes: 100, largestPooled: 100 });
    const held = arena.store(bytes(10, 7));
    const others = Array.from({ length: 9 }, (_, i) => arena.store(bytes(10, i)));
    arena.store(bytes(10, 99)).release(); // a second slab; the first is full
    for (const body of others) body.release(); // the first slab holds 10 of 100 bytes: moved out
    expect(held.bytes.buffer).not.toBe(others[0]!.bytes.buffer);
    expect([...held.bytes]).toEqual([...bytes(10, 7)]);
    // its slab is reused: the next slab needed is not a new one
    for (let i = 0; i < 10; i++) arena.store(bytes(10, 50 + i));
    expect(arena.slabsCreated).toBe(2);
    expect([...held.bytes]).toEqual([...bytes(10, 7)]);
  });

  it('does not move a body while it has views, and moves it once they are gone', () => {
    const arena = new BodyArena({ slabBytes: 100, largestPooled: 100 });
    const held = arena.store(bytes(10, 7));
    held.addView(); // e.g. spans decoded from it, waiting to be scored
    const others = Array.from({ length: 9 }, (_, i) => arena.store(bytes(10, i)));
    arena.store(bytes(10, 99)).release(); // a second slab; the first is full
    for (const body of others) body.release();
    const slab = held.bytes.buffer;
    for (let i = 0; i < 10; i++) arena.store(bytes(10, 50 + i)).release(); // fills more slabs
    expect(held.bytes.buffer).toBe(slab); // not moved, its slab not reused
    expect([...held.bytes]).toEqual([...bytes(10, 7)]);
    held.dropView();
    expect(held.bytes.buffer).not.toBe(slab); // moved out now, the slab reused
    expect([...held.bytes]).toEqual([...bytes(10, 7)]);
    expect(() => held.dropView()).toThrow(/more often than added/);
  });

  it('refuses a retain after the last release, and a release too many', () => {
    const arena = new BodyArena();
    const body = arena.store(bytes(10, 1));
    body.retain();
    body.release();
    body.release();
    expect(() => body.retain()).toThrow(/released body/);
    expect(() => body.release()).toThrow(/more often than retained/);
  });

  it('never changes a held body, whatever is stored and released around it; slabs stay bounded', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('store' as const), size: fc.integer({ min: 1, max: 40 }) }),
            fc.record({ op: fc.constant('retain' as const), pick: fc.nat() }),
            fc.record({ op: fc.constant('release' as const), pick: fc.nat() }),
            fc.record({ op: fc.constant('view' as const), pick: fc.nat() }),
            fc.record({ op: fc.constant('unview' as const), pick: fc.nat() }),
          ),
          { size: 'max', maxLength: 300 },
        ),
        (ops) => {
          const arena = new BodyArena({ slabBytes: 128, largestPooled: 32, freeSlabs: 2 });
          const live: {
            body: RetainedBody;
            fill: number;
            size: number;
            holds: number;
            views: number;
            /** Where the bytes were when the first of the current views was added. */
            pinnedAt: ArrayBufferLike | null;
          }[] = [];
          let fill = 0;
          for (const step of ops) {
            if (step.op === 'store') {
              fill += 1;
              live.push({
                body: arena.store(bytes(step.size, fill)),
                fill,
                size: step.size,
                holds: 1,
                views: 0,
                pinnedAt: null,
              });
            } else if (live.length > 0) {
              const at = step.pick % live.length;
              const entry = live[at]!;
              if (step.op === 'retain') {
                entry.body.retain();
                entry.holds += 1;
              } else if (step.op === 'view') {
                if (entry.views === 0) entry.pinnedAt = entry.body.bytes.buffer;
                entry.body.addView();
                entry.views += 1;
              } else if (step.op === 'unview') {
                if (entry.views > 0) {
                  entry.body.dropView();
                  entry.views -= 1;
                  if (entry.views === 0) entry.pinnedAt = null;
                }
              } else if (entry.views === 0) {
                // holders drop their views before they let go
                entry.body.release();
                entry.holds -= 1;
                if (entry.holds === 0) live.splice(at, 1);
              }
            }
            for (const { body, fill: f, size, pinnedAt } of live) {
              expect(body.bytes.byteLength).toBe(size);
              expect(body.bytes.every((b) => b === (f & 0xff))).toBe(true);
              // a body with views never moves
              if (pinnedAt !== null) expect(body.bytes.buffer).toBe(pinnedAt);
            }
            // slabs in use hold at least an eighth of their bytes in live bodies, but for the
            // current slab and the one just closed, while no view pins a slab
            if (live.every((e) => e.views === 0)) {
              const liveBytes = live.reduce((n, e) => n + (e.size <= 32 ? e.size : 0), 0);
              expect(arena.slabs.inUse).toBeLessThanOrEqual(2 + Math.floor((liveBytes * 8) / 128));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
