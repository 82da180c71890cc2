import { concat, from, lastValueFrom, of, Subject, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { writeToSinks } from '../../src/pipeline/write-to-sinks.js';
import type { Sink } from '../../src/sinks/sink.js';
import { MemorySink } from './memory-sink.js';

describe('writeToSinks', () => {
  it('writes every value to every sink in order, re-emits it, then flushes and shuts down', async () => {
    const a = new MemorySink<number>();
    const b = new MemorySink<number>();
    const seen: string[] = [];
    const out = await lastValueFrom(from([1, 2, 3]).pipe(writeToSinks([a, b]), toArray()));
    seen.push(...a.calls);
    expect(out).toEqual([1, 2, 3]);
    expect(a.items).toEqual([1, 2, 3]);
    expect(b.items).toEqual([1, 2, 3]);
    expect(seen).toEqual(['write', 'write', 'write', 'flush', 'shutdown']);
  });

  it('re-emits a value only after all sinks wrote it', async () => {
    let release: () => void = () => undefined;
    const gated: Sink<number> = {
      write: () => new Promise<void>((r) => (release = r)),
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
    const fast = new MemorySink<number>();
    const emitted: number[] = [];
    const done = new Promise<void>((resolve) =>
      of(7)
        .pipe(writeToSinks([fast, gated]))
        .subscribe({ next: (v) => emitted.push(v), complete: resolve }),
    );
    await new Promise((r) => setTimeout(r, 5));
    expect(fast.items).toEqual([7]);
    expect(emitted).toEqual([]);
    release();
    await done;
    expect(emitted).toEqual([7]);
  });

  it('shuts the sinks down (no flush) and passes an upstream error on', async () => {
    const a = new MemorySink<number>();
    const err = new Error('truncated');
    await expect(
      lastValueFrom(
        concat(
          of(1),
          throwError(() => err),
        ).pipe(writeToSinks([a])),
      ),
    ).rejects.toBe(err);
    expect(a.calls).toEqual(['write', 'shutdown']);
  });

  it('errors the stream when a sink cannot write', async () => {
    const a = new MemorySink<number>((n) => n === 2);
    const b = new MemorySink<number>();
    await expect(lastValueFrom(from([1, 2, 3]).pipe(writeToSinks([a, b])))).rejects.toThrow('disk full');
    expect(a.calls.at(-1)).toBe('shutdown');
    expect(b.calls.at(-1)).toBe('shutdown');
    expect(a.items).toEqual([1]);
  });

  it('shuts down when unsubscribed early', async () => {
    const a = new MemorySink<number>();
    const sub = new Subject<number>().pipe(writeToSinks([a])).subscribe();
    sub.unsubscribe();
    await new Promise((r) => setTimeout(r, 0));
    expect(a.calls).toEqual(['shutdown']);
  });
});
