import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedJson, embedJsonChunks } from '../../src/report/embed-json.js';

describe('embedJsonChunks', () => {
  it('joins to exactly embedJson of any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect([...embedJsonChunks(value)].join('')).toBe(embedJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it('cuts a large table into pieces without changing a byte', () => {
    const rows = 20_000;
    const table = {
      id: Array.from({ length: rows }, (_, i) => `trial-${i}</script>`),
      values: [
        Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? null : i / 3)),
        Array.from({ length: rows }, (_, i) => (i % 5 === 0 ? { $o: 'object' } : `<${i}>`)),
      ],
      holes: new Array<number>(5000),
      skipped: undefined,
      nested: { deeper: [[1, [2, { x: '<' }]], []] },
    };
    table.holes[4321] = 1;
    const pieces = [...embedJsonChunks(table)];
    expect(pieces.length).toBeGreaterThan(10);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(1 << 17);
    expect(pieces.join('')).toBe(embedJson(table));
    expect(pieces.join('')).not.toContain('<');
  });
});
