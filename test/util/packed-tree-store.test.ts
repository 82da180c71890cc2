import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/mulberry32.js';
import { PackedTreeStore } from '../../src/util/packed-tree-store.js';

/**
 * Exact equality of plain trees: same keys in the same order, `Object.is` for leaves (so `-0` is
 * not `0`), arrays of the same length, plain objects rebuilt with the plain prototype, and any other
 * object the same one (kept by reference).
 */
function sameTree(a: unknown, b: unknown, path = '$'): void {
  if (typeof a !== 'object' || a === null) {
    if (!Object.is(a, b)) throw new Error(`${path}: ${String(a)} !== ${String(b)}`);
    return;
  }
  if (typeof b !== 'object' || b === null) throw new Error(`${path}: object against ${String(b)}`);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) throw new Error(`${path}: array length`);
    a.forEach((x, i) => sameTree(x, b[i], `${path}[${i}]`));
    return;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype) {
    // not plain data: kept by reference
    if (a !== b) throw new Error(`${path}: a value kept by reference came back as another`);
    return;
  }
  expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) throw new Error(`${path}: keys ${ka} against ${kb}`);
  for (const k of ka)
    sameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
}

const LEAVES: unknown[] = [
  0,
  -0,
  1,
  -1.5,
  1e308,
  5e-324,
  NaN,
  Infinity,
  -Infinity,
  '',
  'a',
  'ü€𝄞',
  true,
  false,
  null,
  undefined,
];

function randomTree(next: () => number, depth: number): unknown {
  const r = next();
  if (depth === 0 || r < 0.45) {
    const pick = Math.floor(next() * (LEAVES.length + 3));
    if (pick === LEAVES.length) return `s${Math.floor(next() * 2000)}`;
    if (pick === LEAVES.length + 1) return next() * 1000 - 500;
    if (pick === LEAVES.length + 2) return 'x'.repeat(100 + Math.floor(next() * 100));
    return LEAVES[pick];
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomTree(next, depth - 1));
  const object: Record<string, unknown> = {};
  const keys = ['a', 'b', 'id', '2', '10', 'value', 'name'];
  for (let i = 0; i < 1 + Math.floor(next() * 4); i++)
    object[keys[Math.floor(next() * keys.length)]!] = randomTree(next, depth - 1);
  return object;
}

describe('PackedTreeStore', () => {
  it('gives back every tree exactly: key order, -0, NaN, infinities, undefined, unicode, long strings', () => {
    const store = new PackedTreeStore();
    const next = mulberry32(42);
    const trees = Array.from({ length: 3000 }, () => randomTree(next, 4));
    const indexes = trees.map((t) => store.add(t));
    expect(indexes).toEqual(trees.map((_, i) => i));
    expect(store.size).toBe(3000);
    trees.forEach((t, i) => sameTree(t, store.get(i), `tree ${i}`));
  });

  it('keeps integer-like keys, an own __proto__ key and empty containers as they were', () => {
    const store = new PackedTreeStore();
    const tricky = JSON.parse('{"b":1,"2":[],"1":{},"__proto__":{"x":-0.5},"a":[[]]}') as unknown;
    const back = store.get(store.add(tricky)) as Record<string, unknown>;
    sameTree(tricky, back);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
  });

  it('keeps what is not plain data by reference', () => {
    class Handle {
      readonly n = 1;
    }
    const handle = new Handle();
    const bare = Object.create(null) as Record<string, unknown>;
    bare['k'] = 1;
    const date = new Date(0);
    const long = Array.from({ length: 65 }, (_, i) => i);
    const wide = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`k${i}`, i]));
    const store = new PackedTreeStore();
    const back = store.get(store.add({ handle, bare, date, big: 12n, long, wide, short: [1] })) as Record<
      string,
      unknown
    >;
    expect(back['long']).toBe(long);
    expect(back['wide']).toBe(wide);
    expect(back['short']).toEqual([1]);
    expect(back['handle']).toBe(handle);
    expect(back['bare']).toBe(bare);
    expect(back['date']).toBe(date);
    expect(back['big']).toBe(12n);
  });

  it('shares one shape between trees of the same structure and rebuilds new objects each time', () => {
    const store = new PackedTreeStore();
    for (let i = 0; i < 500; i++)
      store.add({ id: `trial-${i}`, task: `task-${i % 5}`, scores: [{ name: 'ok', value: i }] });
    store.add({ id: 'x', task: 'y', scores: [{ name: 'ok', value: true }] });
    expect(store.shapeCount).toBe(2);
    const a = store.get(7) as { scores: { value: number }[] };
    a.scores[0]!.value = -1;
    expect(store.get(7)).toEqual({ id: 'trial-7', task: 'task-2', scores: [{ name: 'ok', value: 7 }] });
    expect(store.get(500)).toEqual({ id: 'x', task: 'y', scores: [{ name: 'ok', value: true }] });
  });

  it('reads strings right whether their column interns them, fills up, or turns out to hold distinct values', () => {
    const store = new PackedTreeStore();
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      unique: `id-${i}`, // distinct: the column stops interning
      repeated: `task-${i % 7}`, // interned
      many: `v-${i % 1500}`, // more distinct values than a column interns
      mixed: i < 100 ? `early-${i}` : 'late', // distinct at first, then one value
    }));
    for (const row of rows) store.add(row);
    rows.forEach((row, i) => expect(store.get(i)).toEqual(row));
  });

  it('pools distinct and long strings as bytes: concatenated, non-ASCII and repeated ones read back equal', () => {
    const store = new PackedTreeStore();
    const rows = Array.from({ length: 3000 }, (_, i) => {
      let id = 'run';
      for (const part of ['task', String(i % 9), `trial-${i}`, 'métrique-𝄞']) id += `:${part}`;
      const text = 'lorem ipsum '.repeat(20) + String(i);
      return {
        id,
        trial: `trial-${i}`,
        again: `trial-${i}`,
        text,
        ids: [id, id],
        lone: i === 7 ? 'a\ud800' : 'b',
      };
    });
    for (const row of rows) store.add(row);
    rows.forEach((row, i) => expect(store.get(i)).toEqual(row));
    // a lone surrogate cannot be UTF-8: that string is kept by reference, unchanged
    expect((store.get(7) as { lone: string }).lone).toBe('a\ud800');
  });

  it('keeps trees of new shapes by reference once it holds its most shapes, and still packs known shapes', () => {
    const store = new PackedTreeStore({ maxShapes: 2 });
    store.add({ a: 1 });
    store.add({ b: 'x' });
    const third = { c: [1, 2] };
    const prefix = { a: 1, b: 2 }; // extends a known shape: new too
    store.add(third);
    store.add(prefix);
    store.add({ a: -0 });
    expect(store.shapeCount).toBe(2);
    expect(store.get(2)).toBe(third);
    expect(store.get(3)).toBe(prefix);
    sameTree({ a: -0 }, store.get(4));
    expect(store.get(4)).not.toBe(store.get(4));
    expect(store.get(1)).toEqual({ b: 'x' });
  });

  it('keeps containers nested deeper than it packs by reference (no stack overflow on hostile depth)', () => {
    let deep: unknown = { leaf: -0 };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const store = new PackedTreeStore();
    const tree = { id: 't', deep };
    const back = store.get(store.add(tree)) as { id: string; deep: unknown };
    expect(back.id).toBe('t');
    let a: unknown = back.deep;
    let b: unknown = deep;
    // rebuilt down to the packing depth, then the very same objects
    for (let i = 0; i < 40 && a !== b; i++) {
      a = (a as unknown[])[0];
      b = (b as unknown[])[0];
    }
    expect(a).toBe(b);
    sameTree(
      { id: 't', shallow: [[[{ x: -0 }]]] },
      store.get(store.add({ id: 't', shallow: [[[{ x: -0 }]]] })),
    );
  });

  it('tells a tree of the last shape from near misses of it (the compiled match), each read back exactly', () => {
    /** A record like a kept trial's: nested objects, an array of records, leaves of every kind. */
    const record = (i: number): Record<string, unknown> => ({
      id: `trial-${i}`,
      status: 'completed',
      output: { output_text: `text ${i}`, response: null, metadata: {} },
      measurements: { tokens: i, cost: i / 7, cached: undefined },
      ok: true,
      scores: [
        { name: 'a', value: i % 3 === 0, diagnostics: [] },
        { name: 'b', value: -i, diagnostics: [{ severity: 'warning', details: { n: 1 } }] },
      ],
    });
    class Box {
      readonly v = 1;
    }
    const mutations: ((r: Record<string, unknown>, i: number) => unknown)[] = [
      (r) => r,
      (r) => ({ status: r['status'], ...r }), // key order
      (r) => ({ ...r, extra: 1 }), // a key more
      (r) => {
        const { ok: _ok, ...rest } = r;
        return rest; // a key fewer
      },
      (r) => {
        const { scores: _scores, ...rest } = r;
        return rest; // the last key fewer
      },
      (r) => ({ ...r, measurements: { tokens: 1, cost: 2 } }), // the last key fewer, whose value was undefined
      (r) => ({ ...r, ok: false }), // true → false
      (r) => ({ ...r, ok: 'yes' }), // boolean → string
      (r) => ({ ...r, id: 7 }), // string → number
      (r) => ({ ...r, output: null }), // object → null
      (r) => ({ ...r, output: new Box() }), // object → by reference
      (r) => {
        const bare = Object.create(null) as Record<string, unknown>;
        bare['output_text'] = 'x';
        return { ...r, output: bare }; // null prototype: by reference
      },
      (r) => ({ ...r, measurements: { ...(r['measurements'] as object), cached: 0 } }), // undefined → number
      (r) => ({ ...r, scores: [...(r['scores'] as unknown[]), { name: 'c', value: 1, diagnostics: [] }] }), // longer array
      (r) => ({ ...r, scores: (r['scores'] as unknown[]).slice(0, 1) }), // shorter array
      (r) => ({ ...r, scores: { 0: 'not an array' } }), // array → object
      (r, i) => {
        // the same keys, one of them a getter (own, enumerable: read like a data property)
        const out = { ...r };
        Object.defineProperty(out, 'id', { get: () => `lazy-${i}`, enumerable: true, configurable: true });
        return out;
      },
      (r) => ({ ...r, wide: Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`k${k}`, k])) }), // too many keys
    ];
    const next = mulberry32(9);
    const store = new PackedTreeStore();
    const trees: unknown[] = [];
    for (let i = 0; i < 4000; i++) {
      // mostly the same structure, as a live server's records are, with every near miss mixed in
      const m = next() < 0.6 ? 0 : Math.floor(next() * mutations.length);
      trees.push((mutations[m] as (r: Record<string, unknown>, i: number) => unknown)(record(i), i));
    }
    trees.forEach((t) => store.add(t));
    trees.forEach((t, i) => sameTree(t, store.get(i), `tree ${i}`));
  });

  it('walks objects whose prototype lends enumerable keys (they do not match a shape by for…in)', () => {
    const store = new PackedTreeStore();
    const tree = (i: number): unknown => ({ a: i, b: { c: `s${i}` } });
    store.add(tree(0));
    Object.defineProperty(Object.prototype, 'lent', { value: 1, enumerable: true, configurable: true });
    try {
      for (let i = 1; i < 5; i++) store.add(tree(i));
    } finally {
      delete (Object.prototype as Record<string, unknown>)['lent'];
    }
    for (let i = 0; i < 5; i++) sameTree(tree(i), store.get(i), `tree ${i}`);
    expect(store.shapeCount).toBe(1);
  });

  it('refuses an index it does not hold', () => {
    const store = new PackedTreeStore();
    store.add(1);
    expect(store.get(0)).toBe(1);
    expect(() => store.get(1)).toThrow('no tree 1 (1 stored)');
    expect(() => store.get(-1)).toThrow(RangeError);
  });
});
