import { seededRandom } from '../src/stats/seeded-random.js';

/**
 * mulberry32: a small deterministic PRNG (uniform in [0, 1)), shared by the benchmark data
 * generators and tests that need reproducible random inputs; the statistics' `seededRandom`.
 *
 * @example
 * const random = mulberry32(42);
 * const x = random(); // same sequence for the same seed
 */
export const mulberry32: (seed: number) => () => number = seededRandom;
