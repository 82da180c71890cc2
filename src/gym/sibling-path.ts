import { join, parse } from 'node:path';

/**
 * `<dir>/<stem><suffix><ext>`, as pathlib's `p.with_stem(p.stem + suffix).with_suffix(ext)` gives it.
 *
 * @example
 * siblingPath('results/rollouts.jsonl', '_aggregate_metrics', '.json'); // 'results/rollouts_aggregate_metrics.json'
 */
export function siblingPath(path: string, suffix: string, ext: string): string {
  const p = parse(path);
  return join(p.dir, `${p.name}${suffix}${ext}`);
}
