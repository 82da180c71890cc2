import type { Summary } from '../model/summary.js';
import { headlineValue } from './summary-accessors.js';

/** The parts of a summary (in memory or as read from `summary.json`) the aggregate table shows. */
export type AggregateTableInput = Pick<Summary, 'scores' | 'metric_coverage'>;

/**
 * The readable aggregate table `score`, `summarize` and `merge` print: name, mean (a scalar's
 * `value`), count, nan_count and coverage (scored/total of the output; blank for views and pass@k),
 * one line per aggregate in summary order, columns aligned. Of a pass@k series only k = 1, 2, 4, 8, …
 * and its largest k are printed (a task with 100 trials has 100 of them), and a last line counts the
 * others, which `summary.json` holds; `allPassAtK` prints every one. Pure; no trailing newline.
 *
 * @example
 * console.log(formatAggregateTable(summary).join('\n'));
 * // name          mean  count  nan_count  coverage
 * // ------------  ----  -----  ---------  --------
 * // judge.reward  0.75      4          0       4/5
 */
export function formatAggregateTable(
  summary: AggregateTableInput,
  options: { allPassAtK?: boolean } = {},
): string[] {
  const header = ['name', 'mean', 'count', 'nan_count', 'coverage'];
  const all = summary.scores.scores;
  const shown = options.allPassAtK === true ? all : all.filter(passAtKShown(all));
  const rows = shown.map((a) => [
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
  const table = [format(header), format(widths.map((w) => '-'.repeat(w))), ...rows.map(format)];
  const hidden = all.length - shown.length;
  if (hidden > 0) table.push(`(${hidden} more pass@k rows, for other k: all are in summary.json)`);
  return table;
}

const PASS_AT_K = /^(.*)pass@(\d+)$/;

/** Whether a row is printed: not a pass@k, or k a power of two or the largest of its series. */
function passAtKShown(rows: readonly { name: string }[]): (row: { name: string }) => boolean {
  const largest = new Map<string, number>();
  for (const { name } of rows) {
    const m = PASS_AT_K.exec(name);
    if (m !== null) largest.set(m[1] as string, Math.max(largest.get(m[1] as string) ?? 0, Number(m[2])));
  }
  return ({ name }) => {
    const m = PASS_AT_K.exec(name);
    if (m === null) return true;
    const k = Number(m[2]);
    return (k & (k - 1)) === 0 || k === largest.get(m[1] as string);
  };
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
