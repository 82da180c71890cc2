import { describe, expect, it } from 'vitest';
import { JsonTextColumn } from '../../src/report/embed-json.js';

describe('JsonTextColumn', () => {
  it('writes an array of JSON items across chunks, multi-byte characters whole', () => {
    const column = new JsonTextColumn('array');
    const items: string[] = [];
    for (let i = 0; i < 30_000; i += 1) items.push(i % 7 === 0 ? `é✓😀${i}` : `id-${i}`);
    for (const item of items) column.push(JSON.stringify(item));
    const pieces = [...column.pieces()];
    expect(pieces.length).toBeGreaterThan(4);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1 << 16);
    expect(pieces.join('')).toBe(JSON.stringify(items));
    expect(column.length).toBe(items.length);
    expect(column.value()).toEqual(items);
    expect(JSON.stringify({ a: column })).toBe(JSON.stringify({ a: items }));
  });

  it('writes characters as one JSON string', () => {
    const column = new JsonTextColumn('chars');
    column.push('c');
    column.repeat('-', 3);
    column.push('fp');
    expect([...column.pieces()].join('')).toBe('"c---fp"');
    expect(column.length).toBe(6);
    expect(new JsonTextColumn('array').value()).toEqual([]);
  });
});
