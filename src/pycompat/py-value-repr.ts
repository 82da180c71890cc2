import { formatPyFloat } from './format-py-float.js';
import { pyRepr } from './py-repr.js';

/**
 * Renders a value the way Python's `repr()` renders the equivalent Python value, so error texts read
 * like the SDK's: strings `'x'`, `None`, `True`, `nan`, `inf`, lists `['a', 'b']`, dicts `{'k': 1}`.
 * Integral numbers print as ints, others with Python's float spelling.
 *
 * @example
 * pyValueRepr(['a', "it's"]); // `['a', "it's"]`
 * pyValueRepr(null); // 'None'
 */
export function pyValueRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumberRepr(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return pyRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyValueRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyRepr(k)}: ${pyValueRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

function pyNumberRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isInteger(n)) return Math.abs(n) < 1e16 ? String(n) : BigInt(n).toString();
  return formatPyFloat(n, 'repr');
}
