import type { StatsInterval } from '../stats/stats-interval.js';

/** Up to 4 decimals, trailing zeros dropped, `—` for null or NaN; `signed` puts `+` before positives. */
function stat(value: number | null, signed = false): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const rounded = Number(value.toFixed(4));
  const text = rounded === 0 && value !== 0 ? value.toPrecision(2) : String(rounded);
  return signed && value > 0 ? `+${text}` : text;
}

/** `[low, high]` with {@link stat}, `—` when there is none. */
function interval(value: StatsInterval | null): string {
  return value === null ? '—' : `[${stat(value.low)}, ${stat(value.high)}]`;
}

/** 3 significant digits, `< 0.0001` below that, `—` for NaN. */
function pValue(p: number): string {
  if (Number.isNaN(p)) return '—';
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(3)));
}

/**
 * How a comparison's figures read, in the terminal text and the HTML page alike: statistics,
 * intervals and p-values.
 *
 * @example
 * comparisonFormat.stat(0.123456); // '0.1235'
 * comparisonFormat.stat(0.25, true); // '+0.25'
 * comparisonFormat.interval({ low: 0.1, high: 0.35 } as StatsInterval); // '[0.1, 0.35]'
 * comparisonFormat.pValue(0.03857421875); // '0.0386'
 */
export const comparisonFormat = { stat, interval, pValue };
