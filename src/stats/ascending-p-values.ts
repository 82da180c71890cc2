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
