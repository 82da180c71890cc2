import { describe, expect, it } from 'vitest';
import { TrialIdIndex } from '../../src/summary/trial-id-index.js';

describe('TrialIdIndex', () => {
  it('gives each distinct id its first-seen position, in any order of repeats', () => {
    const index = new TrialIdIndex();
    const ids = Array.from({ length: 5000 }, (_, i) => `trial-${(i * 7919) % 5000}`);
    expect(ids.map((id) => index.add(id))).toEqual(ids.map((_, i) => i));
    // repeats: consecutive, and far apart after the table grew
    expect(index.add('trial-0')).toBe(0);
    expect(index.add('trial-0')).toBe(0);
    expect(index.add(ids[4321] as string)).toBe(4321);
    expect(index.add('')).toBe(5000);
    expect(index.add('\ud800')).toBe(5001);
    expect(index.add('')).toBe(5000);
    expect(index.ids).toHaveLength(5002);
    expect(index.ids.slice(0, 3)).toEqual(ids.slice(0, 3));
  });
});
