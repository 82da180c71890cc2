import type { Summary } from '../model/summary.js';
import { headlineValue } from './summary-accessors.js';

/** The parts of a summary (in memory or as read from `summary.json`) the aggregate table shows. */
export type AggregateTableInput = Pick<Summary, 'scores' | 'metric_coverage'>;

/**
 * The readable aggregate table `score` and `summarize` print: name, mean (a scalar's `value`),
 * count, nan_count and coverage (scored/total of the output; blank for views and pass@k), one line
 * per aggregate in summary order, columns aligned. Pure; no trailing newline.
 *
 * @example
 * console.log(formatAggregateTable(summary).join('\n'));
 * // name          mean  count  nan_count  coverage
 * // ------------  ----  -----  ---------  --------
 * // judge.reward  0.75      4          0       4/5
 */
export function formatAggregateTable(summary: AggregateTableInput): string[] {
  const header = ['name', 'mean', 'count', 'nan_count', 'coverage'];
  const rows = summary.scores.scores.map((a) => [
    a.name,
    formatNumber(headlineValue(a)),
    a.count === null ? '-' : String(a.count),
    String(a.nan_count),
    coverageOf(summary, a.name),
  ]);
  if (rows.length === 0) return ['(no aggregates)'];
  // a loop, not Math.max(...rows): more rows than fit on the call stack as arguments are printed
  const widths = header.map((h, i) => {
    let w = h.length;
    for (const r of rows) w = Math.max(w, (r[i] as string).length);
    return w;
  });
  const format = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...rows.map(format)];
}

function coverageOf(summary: AggregateTableInput, name: string): string {
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
    const counts = summary.metric_coverage[name.slice(0, dot)]?.[name.slice(dot + 1)];
    if (counts !== undefined) return `${counts.scored}/${counts.total}`;
  }
  return '';
}

function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return Number.isInteger(value) ? value.toFixed(1) : String(Number(value.toPrecision(6)));
}
