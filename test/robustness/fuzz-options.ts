import type { Parameters } from 'fast-check';

/**
 * fast-check options of the fuzz properties: `EVALSTREAM_FUZZ_RUNS` cases each (default 300, the CI
 * budget; `npm run fuzz` runs more), `EVALSTREAM_FUZZ_SEED` to replay a failure (default: a fixed
 * seed, so CI runs the same cases every time). `share` scales the count for slower properties.
 *
 * @example
 * fc.assert(fc.property(arb, check), fuzzOptions());
 */
export function fuzzOptions(share = 1): Parameters<unknown> {
  const runs = Number(process.env['EVALSTREAM_FUZZ_RUNS'] ?? 300);
  const seed = process.env['EVALSTREAM_FUZZ_SEED'];
  return {
    numRuns: Math.max(1, Math.round(runs * share)),
    seed: seed === undefined ? 20261204 : Number(seed),
    endOnFailure: true,
  };
}
