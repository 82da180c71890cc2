import { ascendingPValues } from './ascending-p-values.js';

/**
 * Holm's step-down adjustment of p-values (family-wise error): sorted ascending, the i-th smallest
 * (0-based) becomes `max over j ≤ i of min(1, (m − j)·p_(j))`; returned in the input order. Reject
 * where the adjusted value is below α. NaN stays NaN and does not count in `m`.
 *
 * @example
 * holmAdjust([0.01, 0.04, 0.03]); // [0.03, 0.06, 0.06]
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const order = ascendingPValues(pValues);
  const m = order.length;
  const adjusted = pValues.map(() => NaN);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
