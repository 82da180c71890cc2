/**
 * Where a failed run's partial bundle goes when its output directory already holds a bundle: the
 * sibling `<dir>.incomplete` (the good bundle is only replaced by a run that succeeded).
 *
 * @example
 * incompleteBundleDir('runs/r1/'); // 'runs/r1.incomplete'
 */
export function incompleteBundleDir(dir: string): string {
  return `${dir.replace(/[\\/]+$/, '')}.incomplete`;
}
