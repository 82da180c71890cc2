import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * The ref to store in `trials.jsonl` (the SDK's `_write_trials`): a ref that resolves inside the
 * bundle directory becomes bundle-relative with `/` separators; any other ref is kept verbatim.
 * Relative refs resolve against the working directory, as `Path(ref).resolve()` does.
 *
 * @example
 * relativizeEvidenceRef('/runs/r1', '/runs/r1/evidence/a/atif.json'); // 'evidence/a/atif.json'
 * relativizeEvidenceRef('/runs/r1', '/elsewhere/atif.json'); // '/elsewhere/atif.json'
 */
export function relativizeEvidenceRef(bundleDir: string, ref: string | null): string | null {
  if (ref === null || ref === '') return ref;
  let path = ref;
  if (ref.startsWith('file:')) {
    try {
      path = fileURLToPath(ref);
    } catch {
      return ref;
    }
  } else if (URI_SCHEME.test(ref)) {
    return ref;
  }
  const target = realOrResolved(path);
  const base = realOrResolved(bundleDir);
  const rel = relative(base, target);
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel))
    return rel === '' ? '.' : ref;
  return rel.split(sep).join('/');
}

/** The real path of the longest existing ancestor, joined with the rest (so symlinked dirs compare equal). */
function realOrResolved(path: string): string {
  const abs = resolve(path);
  let head = abs;
  let tail = '';
  while (!existsSync(head)) {
    const parent = dirname(head);
    if (parent === head) return abs;
    tail = tail === '' ? basename(head) : join(basename(head), tail);
    head = parent;
  }
  try {
    const real = realpathSync(head);
    return tail === '' ? real : join(real, tail);
  } catch {
    return abs;
  }
}
