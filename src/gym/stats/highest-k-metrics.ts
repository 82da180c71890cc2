const STAT_SUFFIXES = ['std_dev_across_runs', 'std_err_across_runs', 'avg_sample_std_dev'];

/**
 * Gym's `highest_k_metrics`: the entries of `metrics` matching `pattern` (with `{k}` standing for the
 * number) at the largest k, leaving out the std/stderr/avg_sample suffix keys; optionally only the
 * given score names and without the excluded ones.
 *
 * @example
 * highestKMetrics({ 'pass@1/accuracy': 50, 'pass@4/accuracy': 90 }, 'pass@{k}'); // { 'pass@4/accuracy': 90 }
 */
export function highestKMetrics<T>(
  metrics: Readonly<Record<string, T>>,
  pattern: string,
  scoreNames?: readonly string[],
  excludeNames?: readonly string[],
): Record<string, T> {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&').replaceAll('\\{k\\}', '(\\d+)');
  const regex = new RegExp(`^${escaped}/(.+)$`);
  const matches: [number, string][] = [];
  for (const key of Object.keys(metrics)) {
    const m = regex.exec(key);
    if (!m) continue;
    const k = Number.parseInt(m[1] as string, 10);
    const scoreName = m[2] as string;
    if (STAT_SUFFIXES.some((s) => scoreName.endsWith(s))) continue;
    if (scoreNames !== undefined && !scoreNames.includes(scoreName)) continue;
    if (excludeNames !== undefined && excludeNames.includes(scoreName)) continue;
    matches.push([k, key]);
  }
  if (matches.length === 0) return {};
  // a loop, not Math.max(...): a hook may return more metrics than fit on the call stack
  let maxK = -Infinity;
  for (const [k] of matches) if (k > maxK) maxK = k;
  const out: Record<string, T> = {};
  for (const [k, key] of matches) if (k === maxK) out[key] = metrics[key] as T;
  return out;
}
