import { ascendingPValues } from './ascending-p-values.js';

/**
 * Benjamini–Hochberg adjustment of p-values (false discovery rate): sorted ascending, the i-th smallest
 * (1-based) becomes `min over j ≥ i of min(1, m·p_(j)/j)`; returned in the input order (R's
 * `p.adjust(p, "BH")`). Reject where the adjusted value is at most q. NaN stays NaN and does not count
 * in `m`.
 *
 * @example
 * benjaminiHochbergAdjust([0.01, 0.04, 0.03]); // [0.03, 0.04, 0.04]
 */
export function benjaminiHochbergAdjust(pValues: readonly number[]): number[] {
  const order = ascendingPValues(pValues);
  const m = order.length;
  const adjusted = pValues.map(() => NaN);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const [p, i] = order[rank] as readonly [number, number];
    running = Math.min(running, (m * p) / (rank + 1));
    adjusted[i] = Math.min(1, running);
  }
  return adjusted;
}
