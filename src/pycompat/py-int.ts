const SMALL: bigint[] = [];

/**
 * The Python int `n` (an integral number) as a `bigint`; small non-negative values come from a cache,
 * so the millions of indices and counts in a Gym result do not each allocate.
 *
 * @example
 * pyInt(3); // 3n
 */
export function pyInt(n: number): bigint {
  if (n >= 0 && n < 65536 && Number.isInteger(n)) {
    let b = SMALL[n];
    if (b === undefined) {
      b = BigInt(n);
      SMALL[n] = b;
    }
    return b;
  }
  return BigInt(n);
}
