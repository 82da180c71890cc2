import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The outcome of {@link resolveEvidenceRef}: the ref to use, or why it was refused. */
export type ResolvedEvidenceRef = { ok: true; ref: string | null } | { ok: false; message: string };

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * Resolves a stored evidence ref against the bundle directory it was read from (the SDK's
 * `read_trials`): a relative ref resolves under the bundle; an absolute ref that exists is kept; a
 * stale absolute ref is rebuilt from its `evidence/` tail when that exists inside the bundle, else
 * kept verbatim; non-file URIs (`s3://`, `https://`) are kept verbatim. A relative ref or rebuilt tail
 * that leaves the bundle (`..`, or a symlink pointing outside) is refused.
 *
 * @example
 * resolveEvidenceRef('/runs/r1', 'evidence/000000-A/atif.json'); // { ok: true, ref: '/runs/r1/evidence/000000-A/atif.json' }
 * resolveEvidenceRef('/runs/r1', '../../etc/passwd'); // { ok: false, message: ... }
 */
export function resolveEvidenceRef(bundleDir: string, ref: string | null): ResolvedEvidenceRef {
  if (ref === null || ref === '') return { ok: true, ref };
  let path = ref;
  if (ref.startsWith('file:')) {
    try {
      path = fileURLToPath(ref);
    } catch {
      return { ok: false, message: `evidence ref ${JSON.stringify(ref)} is not a valid file URI` };
    }
  } else if (URI_SCHEME.test(ref)) {
    return { ok: true, ref };
  }
  const base = resolve(bundleDir);
  if (!isAbsolute(path)) {
    const candidate = resolve(base, path);
    if (!staysInside(base, candidate)) {
      return { ok: false, message: `evidence ref ${JSON.stringify(ref)} escapes the bundle directory` };
    }
    return { ok: true, ref: candidate };
  }
  if (existsSync(path)) return { ok: true, ref };
  const parts = path.split(/[\\/]+/);
  const at = parts.indexOf('evidence');
  if (at >= 0) {
    const rebuilt = join(base, ...parts.slice(at));
    if (!staysInside(base, rebuilt)) {
      return { ok: false, message: `evidence ref ${JSON.stringify(ref)} escapes the bundle directory` };
    }
    if (existsSync(rebuilt)) return { ok: true, ref: rebuilt };
  }
  return { ok: true, ref };
}

/** Lexically inside `base`, and still inside after resolving symlinks of whatever exists. */
function staysInside(base: string, candidate: string): boolean {
  if (!isInside(base, candidate)) return false;
  if (!existsSync(candidate)) return true;
  try {
    return isInside(realpathSync(base), realpathSync(candidate));
  } catch {
    return false;
  }
}

function isInside(base: string, candidate: string): boolean {
  const rel = relative(base, candidate);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}
