import { describe, expect, it } from 'vitest';
import { TrialIdIndex } from '../../src/summary/trial-id-index.js';

describe('TrialIdIndex', () => {
  it('gives each distinct id its first-seen position once compacted, in any order of repeats', () => {
    const index = new TrialIdIndex();
    const ids = Array.from({ length: 5000 }, (_, i) => `trial-${(i * 7919) % 5000}`);
    const given = ids.map((id) => index.add(id));
    expect(given).toEqual(ids.map((_, i) => i));
    expect(index.compact()).toBeNull();
    // repeats: consecutive, and far apart
    given.push(index.add('trial-0'), index.add('trial-0'), index.add(ids[4321] as string));
    given.push(index.add(''), index.add('\ud800'), index.add(''));
    const remap = index.compact() as Int32Array;
    expect(given.slice(5000).map((p) => remap[p])).toEqual([0, 0, 4321, 5000, 5001, 5000]);
    expect(given.slice(0, 5000).map((p) => remap[p])).toEqual(ids.map((_, i) => i));
    expect(index.ids).toHaveLength(5002);
    expect(index.ids.slice(0, 3)).toEqual(ids.slice(0, 3));
    expect(index.ids.slice(4999)).toEqual([ids[4999], '', '\ud800']);
    // positions after a compaction continue from the compacted list
    expect(index.add('trial-1')).toBe(5002);
    expect(index.add('new')).toBe(5003);
    expect([...(index.compact() as Int32Array)].slice(5002)).toEqual([ids.indexOf('trial-1'), 5002]);
    expect(index.ids).toHaveLength(5003);
  });
});
