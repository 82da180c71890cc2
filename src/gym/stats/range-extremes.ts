/**
 * The smallest and the largest of `v[start, end)`, NaN skipped (Infinity / -Infinity for none; of
 * equal values, the first is kept, so -0 and 0 come out as the first of them). Shared by the
 * statistics that need an extreme of a range (describe, the median's lower middle, the repeat-level
 * quantiles).
 *
 * @example
 * rangeMin(Float64Array.of(3, NaN, 1), 0, 3); // 1
 */
export function rangeMin(v: Float64Array, start: number, end: number): number {
  let lo = Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) < lo) lo = v[i] as number;
  return lo;
}

/** The largest of `v[start, end)`, as {@link rangeMin}. */
export function rangeMax(v: Float64Array, start: number, end: number): number {
  let hi = -Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) > hi) hi = v[i] as number;
  return hi;
}
