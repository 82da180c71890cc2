/**
 * Rearranges `a[lo, hi]` (inclusive) so that `a[k]` holds the value that would be there if the range
 * were sorted ascending, with no larger value before it and no smaller one after it (Hoare's
 * quickselect, median-of-three pivots). Expected linear time; the value is exact, like `np.partition`.
 *
 * @example
 * const a = Float64Array.of(5, 1, 4, 2); selectKth(a, 1, 0, 3); a[1]; // 2
 */
export function selectKth(a: Float64Array, k: number, lo = 0, hi: number = a.length - 1): void {
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three as pivot, placed at `mid`
    if ((a[mid] as number) < (a[lo] as number)) swap(a, mid, lo);
    if ((a[hi] as number) < (a[lo] as number)) swap(a, hi, lo);
    if ((a[hi] as number) < (a[mid] as number)) swap(a, hi, mid);
    const pivot = a[mid] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}
