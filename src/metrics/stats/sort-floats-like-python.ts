/**
 * Sort finite floats ascending into a new `Float64Array`, ordering equal values exactly as Python's
 * stable `sorted()` does. The only equal-but-distinguishable floats are `-0.0` and `0.0`: a typed-array
 * sort puts every `-0` first, Python keeps them in input order, so the block of zeros is rewritten
 * with the signs in input order. Non-finite inputs are the caller's business (filter them first).
 *
 * @example
 * sortFloatsLikePython([0, -0, -1]); // Float64Array [-1, 0, -0]
 */
export function sortFloatsLikePython(values: ArrayLike<number>): Float64Array {
  const sorted = new Float64Array(values as ArrayLike<number>);
  sorted.sort();
  let negativeZero = false;
  for (let i = 0; i < values.length; i++) {
    if (Object.is(values[i], -0)) {
      negativeZero = true;
      break;
    }
  }
  if (!negativeZero) return sorted;
  let first = 0;
  while (first < sorted.length && (sorted[first] as number) < 0) first++;
  let z = first;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v === 0) sorted[z++] = v;
  }
  return sorted;
}
