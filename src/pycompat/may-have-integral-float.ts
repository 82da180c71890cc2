const EXPONENT = /\d[eE][+-]?\d/;

/**
 * Whether text may hold a number literal written as a float yet integral (`1.0`, `2.50e3`, `1e+16`):
 * such a literal either has a fraction of zeros (so the text contains `.0`) or an exponent. False
 * means every integral number in the text is an int literal; a false positive (e.g. `.0` inside a
 * string, or a hex id like `a1e5`) only costs a closer look.
 *
 * @example
 * mayHaveIntegralFloat('{"v": 1.0}'); // true
 * mayHaveIntegralFloat('{"v": 1, "w": 0.5}'); // false
 */
export function mayHaveIntegralFloat(text: string): boolean {
  return text.includes('.0') || EXPONENT.test(text);
}
