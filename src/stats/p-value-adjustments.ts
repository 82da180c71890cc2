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

/**
 * The non-NaN p-values with their input positions, smallest first (ties in input order): the order
 * the step-wise adjustments (Holm, Benjamini–Hochberg) walk.
 *
 * @example
 * ascendingPValues([0.04, NaN, 0.01]); // [[0.01, 2], [0.04, 0]]
 */
export function ascendingPValues(pValues: readonly number[]): (readonly [number, number])[] {
  return pValues
    .map((p, i) => [p, i] as const)
    .filter(([p]) => !Number.isNaN(p))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
