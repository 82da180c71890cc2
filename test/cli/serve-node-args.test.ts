import { describe, expect, it } from 'vitest';
import { gcThreadsFor, serveNodeArgs } from '../../src/cli/serve-node-args.js';

describe('serve node options', () => {
  it('gives the garbage collector one thread fewer than the cores, 1 to 4', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map(gcThreadsFor)).toEqual([1, 1, 2, 3, 4, 4, 4]);
  });

  it('prepends --v8-pool-size to the process options, unless one is given already', () => {
    expect(serveNodeArgs(['--import', 'tsx'], '', 2)).toEqual(['--v8-pool-size=1', '--import', 'tsx']);
    expect(serveNodeArgs([], '', 16)).toEqual(['--v8-pool-size=4']);
    expect(serveNodeArgs(['--v8-pool-size=3'], '', 2)).toBeNull();
    expect(serveNodeArgs([], '--max-old-space-size=4096 --v8-pool-size=2', 2)).toBeNull();
    expect(serveNodeArgs(['--v8-pool-size', '2'], '', 2)).toBeNull();
  });
});
