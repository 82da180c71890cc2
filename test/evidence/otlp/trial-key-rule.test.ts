import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/mulberry32.js';
import {
  KeyNoter,
  resolveKey,
  resolveNotedKey,
  type KeyNotes,
} from '../../../src/evidence/otlp/trial-key-rule.js';
import type { OtlpResource, OtlpSpan } from '../../../src/evidence/otlp/otlp-types.js';
import { fakeSpan } from '../../serve/fake-span.js';

const KEYS = ['conv', 'alt', 'task'];

/** A resource carrying `attrs` (attribute objects borrowed from a fake span). */
function resource(attrs: Record<string, string>): OtlpResource {
  return { attributes: fakeSpan({ spanId: 'r', attrs }).attributes, droppedAttributesCount: 0 };
}

/**
 * `n` spans of one trace with random parents (some outside the trace), start times with ties, and
 * each key on the span, on its resource (shared by runs of spans, as in one request), or absent,
 * from a pool of two values, so that spans often disagree.
 */
function randomTrace(next: () => number, n: number): OtlpSpan[] {
  const pick = (xs: readonly string[]): string => xs[Math.floor(next() * xs.length)] as string;
  const spans: OtlpSpan[] = [];
  let res = resource({});
  for (let i = 0; i < n; i++) {
    if (next() < 0.3) {
      const attrs: Record<string, string> = {};
      for (const key of KEYS) if (next() < 0.3) attrs[key] = pick([`${key}-r1`, `${key}-r2`]);
      res = resource(attrs);
    }
    const attrs: Record<string, string> = {};
    for (const key of KEYS) if (next() < 0.4) attrs[key] = pick([`${key}-a`, `${key}-b`, '']);
    const parent = i === 0 || next() < 0.15 ? 'none' : `s${Math.floor(next() * i)}`;
    spans.push({
      ...fakeSpan({ spanId: `s${i}`, parentSpanId: parent, attrs, start: BigInt(Math.floor(next() * 4)) }),
      resource: res,
    });
  }
  return spans;
}

describe('resolveNotedKey', () => {
  it('gives resolveKey over the spans of all parts, in order, for random traces split into traces of a trial', () => {
    const next = mulberry32(7);
    let disagreements = 0;
    let nulls = 0;
    for (let round = 0; round < 3000; round++) {
      const spans = randomTrace(next, 1 + Math.floor(next() * 12));
      // consecutive runs of the spans, each noted by its own KeyNotes (one per trace of a trial)
      const noter = new KeyNoter(KEYS);
      const parts: KeyNotes[] = [];
      let notes = noter.start();
      parts.push(notes);
      for (const span of spans) {
        if (next() < 0.2) parts.push((notes = noter.start()));
        noter.note(notes, span);
      }
      let read = 0;
      const spansOf = (): OtlpSpan[] => {
        read += 1;
        return spans;
      };
      const trial = resolveNotedKey(parts, ['conv', 'alt'], 0, spansOf);
      const task = resolveNotedKey(parts, ['task'], 2, spansOf);
      expect(trial).toBe(resolveKey(spans, ['conv', 'alt']));
      expect(task).toBe(resolveKey(spans, ['task']));
      disagreements += read;
      if (trial === null) nulls += 1;
    }
    // the random traces cover every branch: agreement, disagreement (spans read), no value at all
    expect(disagreements).toBeGreaterThan(300);
    expect(disagreements).toBeLessThan(5000);
    expect(nulls).toBeGreaterThan(30);
  });

  it('reads the spans only when they disagree on the deciding key', () => {
    const noter = new KeyNoter(['conv']);
    const notes = noter.start();
    const a = fakeSpan({ spanId: 'a', attrs: { conv: 'c1' } });
    const b = fakeSpan({ spanId: 'b', parentSpanId: 'a', attrs: { conv: 'c1' } });
    noter.note(notes, a);
    noter.note(notes, b);
    const never = (): OtlpSpan[] => {
      throw new Error('spans read');
    };
    expect(resolveNotedKey([notes], ['conv'], 0, never)).toBe('c1');
    // a sub-agent's own id, deeper in the trace: the root's value wins
    const c = fakeSpan({ spanId: 'c', parentSpanId: 'b', attrs: { conv: 'sub' } });
    noter.note(notes, c);
    expect(resolveNotedKey([notes], ['conv'], 0, () => [a, b, c])).toBe('c1');
  });
});
