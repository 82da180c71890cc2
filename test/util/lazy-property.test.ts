import { describe, expect, it } from 'vitest';
import { lazyProperty } from '../../src/util/lazy-property.js';

interface Source {
  reads: number;
  text: string;
}
const defineText = lazyProperty('text', (s: Source) => {
  s.reads += 1;
  return s.text.toUpperCase();
});

describe('lazyProperty', () => {
  it('computes on the first read only, then is a plain data property holding no source', () => {
    const source = { reads: 0, text: 'abc' };
    const o: { text?: string; n?: number } = {};
    defineText(o, source);
    o.n = 1;
    expect(source.reads).toBe(0);
    expect(Object.keys(o)).toEqual(['text', 'n']);
    expect(Object.getOwnPropertySymbols(o)).toHaveLength(1);
    expect(o.text).toBe('ABC');
    expect(o.text).toBe('ABC');
    expect(source.reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(o, 'text')).toEqual({
      value: 'ABC',
      writable: true,
      enumerable: true,
      configurable: true,
    });
    // the source is let go: its slot holds nothing (kept, so the object keeps its fast shape)
    const [slot] = Object.getOwnPropertySymbols(o);
    expect((o as Record<symbol, unknown>)[slot!]).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(o, slot!)?.enumerable).toBe(false);
    expect(Object.keys(o)).toEqual(['text', 'n']);
  });

  it('looks like plain data to JSON, spread and structuredClone before any read', () => {
    const make = (): object => {
      const o = {};
      defineText(o, { reads: 0, text: 'x' });
      return o;
    };
    expect(JSON.stringify(make())).toBe('{"text":"X"}');
    expect({ ...make() }).toStrictEqual({ text: 'X' });
    expect(structuredClone(make())).toStrictEqual({ text: 'X' });
  });

  it('an assignment replaces the value without computing it; a frozen object keeps its accessor', () => {
    const source = { reads: 0, text: 'abc' };
    const o: { text?: string } = {};
    defineText(o, source);
    o.text = 'set';
    expect(o.text).toBe('set');
    expect(source.reads).toBe(0);
    expect(Object.getOwnPropertySymbols(o).map((k) => (o as Record<symbol, unknown>)[k])).toEqual([
      undefined,
    ]);

    const frozen: { text?: string } = {};
    defineText(frozen, { reads: 0, text: 'f' });
    Object.freeze(frozen);
    expect(frozen.text).toBe('F');
    expect(frozen.text).toBe('F');
    expect(() => {
      frozen.text = 'no';
    }).toThrow(TypeError);
  });
});
