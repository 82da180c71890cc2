const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** A value boxed because JSON has no NaN or Infinity (`{"$nf": "NaN"}`). */
export interface BoxedNonFinite {
  $nf: string;
}

/**
 * The one formatting layer of the report page and the live page: counts, statistics, raw values,
 * durations and timestamps, each as the text a reader sees.
 *
 * @example
 * format.int(12345); // '12,345'
 */
export const format = {
  /** A count with thousands separators; `—` when absent. */
  int(n: number | null | undefined): string {
    return n === null || n === undefined ? '—' : NUMBER_FORMAT.format(n);
  },

  /** An aggregate statistic: 3 decimals, thousands separators above 1000, exponent below 0.001. */
  stat(x: number | BoxedNonFinite | null | undefined): string {
    if (x === null || x === undefined) return '—';
    if (typeof x === 'object') return x.$nf || '—';
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    if (a >= 1000) return x.toLocaleString('en-US', { maximumFractionDigits: 1 });
    if (a !== 0 && a < 0.001) return x.toExponential(2);
    return x.toFixed(3);
  },

  /** A raw value: integers as they are, other numbers to 6 significant digits. */
  num(x: number): string {
    return Number.isInteger(x) ? String(x) : String(parseFloat(x.toPrecision(6)));
  },

  /** Seconds as `12.5 s`, `3 min 4 s` or `2 h 05 min`; null when absent. */
  duration(sec: number | null | undefined): string | null {
    if (sec === null || sec === undefined) return null;
    if (sec < 60) return `${sec.toFixed(1)} s`;
    const m = Math.floor(sec / 60);
    if (m < 60) return `${m} min ${Math.round(sec - m * 60)} s`;
    return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
  },

  /** An ISO timestamp with a space for the `T`; null when absent. */
  time(t: string | null | undefined): string | null {
    return t ? String(t).replace('T', ' ') : null;
  },
};
