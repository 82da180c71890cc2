import { isAbsolute, relative, sep } from 'node:path';

/**
 * The relative path of `path` under the directory `base` (`''` for `base` itself), or null when
 * `path` lies outside it. Both are compared as given (resolve them first).
 *
 * @example
 * pathInside('/runs/r1', '/runs/r1/evidence/a'); // 'evidence/a'
 * pathInside('/runs/r1', '/runs/r2'); // null
 */
export function pathInside(base: string, path: string): string | null {
  const rel = relative(base, path);
  return rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel) ? null : rel;
}
