/** One time's interval of an anytime-valid confidence sequence for a bounded mean. */
export interface ConfidenceSequenceInterval {
  /** Observations used. */
  n: number;
  /** The weighted mean the interval is centred on (before clipping to the bounds). */
  center: number;
  lower: number;
  upper: number;
}

/** Options of {@link confidenceSequence}. */
export interface ConfidenceSequenceOptions {
  /** Error rate: the sequence covers the mean at every n at once with probability ≥ 1 − alpha. Default 0.05. */
  alpha?: number;
  /** Known bounds of each observation (default 0 and 1). */
  lower?: number;
  upper?: number;
}

/**
 * The predictable plug-in empirical-Bernstein confidence sequence (PrPl-EB) of Waudby-Smith & Ramdas
 * (2023), "Estimating means of bounded random variables by betting", JRSS-B, Theorem 2, for the mean
 * of independent observations in known bounds, at the last observation, intersected with its
 * intervals at every earlier n (a running intersection stays valid). Unlike a fixed-n interval it may
 * be looked at after every observation and stopped on at will: the probability that it ever misses
 * the mean is at most `alpha`. It assumes the observations arrive in an order that does not depend
 * on their values. Null for no observations.
 *
 * @example
 * confidenceSequence([1, 0, 1, 1, 0, 1]); // { n: 6, center: 0.66…, lower: 0, upper: 1 } (wide at n = 6)
 */
export function confidenceSequence(
  values: readonly number[],
  options: ConfidenceSequenceOptions = {},
): ConfidenceSequenceInterval | null {
  const alpha = options.alpha ?? 0.05;
  const lo = options.lower ?? 0;
  const hi = options.upper ?? 1;
  const maxBet = 0.5; // the largest bet λ, the paper's c
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(hi > lo)) throw new RangeError(`upper bound ${hi} must exceed lower bound ${lo}`);
  if (values.length === 0) return null;
  const logTerm = Math.log(2 / alpha);
  const span = hi - lo;
  // running sums, on the [0, 1] scale
  let sum = 0; // Σ x_i
  let squares = 0; // Σ (x_i − μ̂_i)²
  let mean = 0.5; // μ̂_{t−1}
  let variance = 0.25; // σ̂²_{t−1}
  let bets = 0; // Σ λ_i
  let weighted = 0; // Σ λ_i x_i
  let penalty = 0; // Σ v_i ψ_E(λ_i)
  let lower = 0;
  let upper = 1;
  let center = 0.5;
  for (let i = 0; i < values.length; i++) {
    const t = i + 1;
    const x = (values[i]! - lo) / span;
    if (!(x >= 0 && x <= 1))
      throw new RangeError(`value ${values[i]} at index ${i} lies outside the bounds [${lo}, ${hi}]`);
    const bet = Math.min(Math.sqrt((2 * logTerm) / (variance * t * Math.log(1 + t))), maxBet);
    const v = 4 * (x - mean) ** 2;
    penalty += (v * (-Math.log(1 - bet) - bet)) / 4;
    bets += bet;
    weighted += bet * x;
    center = weighted / bets;
    const width = (logTerm + penalty) / bets;
    lower = Math.max(lower, center - width);
    upper = Math.min(upper, center + width);
    sum += x;
    mean = (0.5 + sum) / (t + 1);
    squares += (x - mean) ** 2;
    variance = (0.25 + squares) / (t + 1);
  }
  return { n: values.length, center: lo + span * center, lower: lo + span * lower, upper: lo + span * upper };
}
