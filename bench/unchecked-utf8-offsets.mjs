/**
 * `invalidUtf8Offsets` that finds nothing: what bench/without-utf8-check.mjs puts in place of the
 * check.
 *
 * @example
 * invalidUtf8Offsets(Buffer.from([0xff]), 0, 1); // []
 */
export function invalidUtf8Offsets() {
  return [];
}
