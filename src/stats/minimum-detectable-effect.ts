import { jstatDistributions } from './jstat-distributions.js';

/** Options of {@link minimumDetectableEffect}. */
export interface MinimumDetectableEffectOptions {
  /** Two-sided significance level. Default 0.05. */
  alpha?: number;
  /** Power. Default 0.8. */
  power?: number;
}

/**
 * The smallest true difference a two-sided test at level α detects with the given power, from the
 * standard error of the difference: `(z(1−α/2) + z(power)) · se` (normal approximation; 2.8016 · se at
 * α = 0.05 and 80 % power). For `n` tasks whose per-task differences have standard deviation `sd`,
 * pass `sd/√n`. NaN when `se` is not finite.
 *
 * @example
 * minimumDetectableEffect(0.1); // 0.28016…
 */
export function minimumDetectableEffect(se: number, options: MinimumDetectableEffectOptions = {}): number {
  if (!Number.isFinite(se)) return NaN;
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  const z = (p: number): number => jstatDistributions.normal.inv(p, 0, 1);
  return (z(1 - alpha / 2) + z(power)) * se;
}
