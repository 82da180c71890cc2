/**
 * Writes a float the way Python's serializers do: `'orjson'` (ryu layout: `1.0`, `0.00001`, `1e16`,
 * `1.5e-7`, NaN/±Infinity as `null`) or `'repr'` (`json.dumps`/`repr`: `1.0`, `1e-05`, `1e+16`,
 * `NaN`, `Infinity`). Digits are the shortest round-trip digits in both.
 *
 * @example
 * formatPyFloat(1, 'orjson'); // '1.0'
 * formatPyFloat(1e-5, 'repr'); // '1e-05'
 */
export function formatPyFloat(x: number, style: 'orjson' | 'repr'): string {
  const abs = Math.abs(x);
  // JavaScript writes shortest digits in fixed notation in this range, as both Python layouts do.
  if (abs >= 1e-4 && abs < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  if (!Number.isFinite(x)) {
    if (style === 'orjson') return 'null';
    return x !== x ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
  }
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const exp = abs.toExponential();
  const e = exp.indexOf('e');
  const digits = exp.slice(0, e).replace('.', '');
  const decpt = Number(exp.slice(e + 1)) + 1; // value = 0.DIGITS × 10^decpt
  const n = digits.length;
  const fixed = (): string => {
    if (decpt <= 0) return `0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= n) return `${digits}${'0'.repeat(decpt - n)}.0`;
    return `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  };
  const mantissa = n === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  if (style === 'orjson') {
    if (decpt > -5 && decpt <= 16) return sign + fixed();
    return `${sign}${mantissa}e${decpt - 1}`;
  }
  if (decpt > -4 && decpt <= 16) return sign + fixed();
  const ex = decpt - 1;
  const absEx = Math.abs(ex);
  return `${sign}${mantissa}e${ex < 0 ? '-' : '+'}${absEx < 10 ? `0${absEx}` : absEx}`;
}
