/**
 * Python's `repr(float)`: the shortest digits that round-trip (as JavaScript), in exponent form when
 * the exponent is < -4 or >= 16, and always with a decimal point or exponent (`1.0`, `1e-05`,
 * `1.5e+16`, `NaN`, `-Infinity`).
 *
 * @example
 * pythonFloatRepr(1); // '1.0'
 * pythonFloatRepr(0.00001); // '1e-05'
 */
export function pythonFloatRepr(x: number): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // 1e-4 <= |x| < 1e16: both languages print plain decimals with the same shortest digits
  const abs = x < 0 ? -x : x;
  if (abs >= 1e-4 && abs < 1e16) {
    const text = String(x);
    return text.includes('.') ? text : text + '.0';
  }
  const sci = x.toExponential(); // e.g. "-1.2345e+2": shortest digits, like Number#toString
  const ePos = sci.indexOf('e');
  const exp = Number(sci.slice(ePos + 1));
  const negative = sci.charCodeAt(0) === 0x2d;
  const mantissa = sci.slice(negative ? 1 : 0, ePos);
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const expText = (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
    return sign + mantissa + 'e' + expText;
  }
  if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits;
  const intLen = exp + 1;
  if (digits.length <= intLen) return sign + digits + '0'.repeat(intLen - digits.length) + '.0';
  return sign + digits.slice(0, intLen) + '.' + digits.slice(intLen);
}
