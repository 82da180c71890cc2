import { createRequire } from 'node:module';

/** The part of jstat's API the statistics use (jstat ships no types). */
export interface JStatDistributions {
  normal: { inv(p: number, mean: number, std: number): number };
  studentt: { inv(p: number, dof: number): number; pdf(x: number, dof: number): number };
}

/**
 * jstat's distributions, typed: the normal quantile, Student-t's quantile and density.
 *
 * @example
 * jstatDistributions.normal.inv(0.975, 0, 1); // 1.959963984540054
 */
export const jstatDistributions = createRequire(import.meta.url)('jstat') as JStatDistributions;
