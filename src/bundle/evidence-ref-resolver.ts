import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathInside } from './path-inside.js';

/** The outcome of resolving one ref: the ref to use, or why it was refused. */
export type ResolvedEvidenceRef = { ok: true; ref: string | null } | { ok: false; message: string };

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * A resolver of stored evidence refs for one bundle directory (the SDK's `read_trials` rules): a
 * relative ref resolves under the bundle; an absolute ref that exists is kept; a stale absolute ref
 * is rebuilt from its `evidence/` tail when that exists inside the bundle, else kept verbatim;
 * non-file URIs (`s3://`, `https://`) are kept verbatim. A relative ref or rebuilt tail that leaves
 * the bundle (`..`, or a symlink pointing outside) is refused. One `realpath` call per ref at most.
 *
 * @example
 * const resolve = evidenceRefResolver('/runs/r1');
 * resolve('evidence/a1/atif.json'); // { ok: true, ref: '/runs/r1/evidence/a1/atif.json' }
 * resolve('../../etc/passwd'); // { ok: false, message: ... }
 */
export function evidenceRefResolver(bundleDir: string): (ref: string | null) => ResolvedEvidenceRef {
  const base = resolve(bundleDir);
  let realBase: string | null = null;
  const escapes = (ref: string): ResolvedEvidenceRef => ({
    ok: false,
    message: `evidence ref ${JSON.stringify(ref)} escapes the bundle directory`,
  });
  /** Lexically inside, and inside after resolving symlinks (when the path exists). */
  const staysInside = (candidate: string): boolean => {
    if (pathInside(base, candidate) === null) return false;
    if (!existsSync(candidate)) return true; // nothing to follow (yet)
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch {
      return true;
    }
    realBase ??= realpathSync.native(base);
    return pathInside(realBase, real) !== null;
  };
  return (ref) => {
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
    if (!isAbsolute(path)) {
      const candidate = resolve(base, path);
      return staysInside(candidate) ? { ok: true, ref: candidate } : escapes(ref);
    }
    if (existsSync(path)) return { ok: true, ref };
    const parts = path.split(/[\\/]+/);
    const at = parts.indexOf('evidence');
    if (at >= 0) {
      const rebuilt = join(base, ...parts.slice(at));
      if (!staysInside(rebuilt)) return escapes(ref);
      if (existsSync(rebuilt)) return { ok: true, ref: rebuilt };
    }
    return { ok: true, ref };
  };
}
