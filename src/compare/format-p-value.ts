/**
 * A p-value for people: 3 significant digits, `< 0.0001` below that, `—` for NaN.
 *
 * @example
 * formatPValue(0.03857421875); // '0.0386'
 */
export function formatPValue(p: number): string {
  if (Number.isNaN(p)) return '—';
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(3)));
}
