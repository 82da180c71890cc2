/**
 * A statistic for people: up to 4 decimals, trailing zeros dropped, `—` for null or NaN; `signed`
 * puts `+` before positive values.
 *
 * @example
 * formatStat(0.123456); // '0.1235'
 * formatStat(0.25, true); // '+0.25'
 */
export function formatStat(value: number | null, signed = false): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const rounded = Number(value.toFixed(4));
  const text = rounded === 0 && value !== 0 ? value.toPrecision(2) : String(rounded);
  return signed && value > 0 ? `+${text}` : text;
}
