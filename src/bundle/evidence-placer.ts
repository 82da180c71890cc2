import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Trial } from '../model/trial.js';
import { pathInside } from './path-inside.js';

const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * Decides how a trial's evidence refs are stored in a bundle being written to `bundleDir`: refs
 * inside the bundle become bundle-relative; refs inside one of `roots` (e.g. the bundle a run was
 * read from) are first copied to the same relative place in the new bundle, so it is self-contained;
 * any other ref is kept verbatim (the SDK's `_write_trials`). Relative refs resolve against the
 * working directory, as `Path(ref).resolve()` does; symlinked directories compare equal.
 *
 * @example
 * const placer = new EvidencePlacer('/out', ['/runs/r1']);
 * const mapRef = await placer.place(trial);
 * trialToWire(trial, mapRef);
 */
export class EvidencePlacer {
  readonly #dir: string;
  readonly #roots: string[];
  readonly #copied = new Set<string>();
  /** The last ref mapped and its mapping: consecutive trials often point into one file (an OTLP dump). */
  #lastRef: string | null = null;
  #lastMapped: string | null = null;
  /** The bundle directory's real path, found at the first ref that needs it (it exists by then). */
  #realDir: string | null = null;
  /** The directory of the last ref resolved and its real path: a run's refs sit in few directories. */
  #lastParent: string | null = null;
  #lastRealParent = '';

  constructor(bundleDir: string, roots: readonly string[] = []) {
    this.#dir = resolve(bundleDir);
    this.#roots = roots.map((r) => resolve(r)).filter((r) => r !== this.#dir);
  }

  /** Copies what needs copying and returns the (synchronous) ref mapping for `trialToWire`. */
  async place(trial: Trial): Promise<(ref: string | null) => string | null> {
    const descriptors = trial.evidence?.descriptors;
    if (descriptors !== undefined && this.#roots.length > 0) {
      for (const d of Object.values(descriptors)) await this.#copyIfUnderRoot(d.ref);
    }
    return (ref) => this.#mapCached(ref);
  }

  #mapCached(ref: string | null): string | null {
    if (ref === null || ref === '') return ref;
    if (ref !== this.#lastRef) {
      this.#lastMapped = this.#map(ref);
      this.#lastRef = ref;
    }
    return this.#lastMapped;
  }

  #map(ref: string): string | null {
    const local = localPath(ref);
    if (local === null) return ref;
    for (const root of this.#roots) {
      const rel = pathInside(root, local);
      if (rel !== null) return rel === '' ? '.' : rel.split(sep).join('/');
    }
    this.#realDir ??= realOrResolved(this.#dir);
    const rel = pathInside(this.#realDir, this.#real(local));
    return rel === null ? ref : rel === '' ? '.' : rel.split(sep).join('/');
  }

  /**
   * {@link realOrResolved} of `local`, from its directory's real path (looked up again only when the
   * directory changes) unless the file itself is a symlink.
   */
  #real(local: string): string {
    const parent = dirname(local);
    if (parent === local) return realOrResolved(local);
    if (parent !== this.#lastParent) {
      this.#lastRealParent = realOrResolved(parent);
      this.#lastParent = parent;
    }
    let link: boolean;
    try {
      link = lstatSync(local, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    } catch {
      return realOrResolved(local);
    }
    return link ? realOrResolved(local) : join(this.#lastRealParent, basename(local));
  }

  async #copyIfUnderRoot(ref: string | null): Promise<void> {
    if (ref === null || ref === '') return;
    const local = localPath(ref);
    if (local === null || pathInside(this.#dir, local) !== null) return;
    for (const root of this.#roots) {
      const rel = pathInside(root, local);
      if (rel === null || rel === '') continue;
      const target = join(this.#dir, rel);
      if (this.#copied.has(target) || existsSync(target) || !existsSync(local)) return;
      this.#copied.add(target);
      await mkdir(dirname(target), { recursive: true });
      await cp(local, target, { recursive: true, errorOnExist: false, force: false });
      return;
    }
  }
}

function localPath(ref: string): string | null {
  if (ref.startsWith('file:')) {
    try {
      return fileURLToPath(ref);
    } catch {
      return null;
    }
  }
  if (URI_SCHEME.test(ref)) return null;
  return resolve(ref);
}

/** The real path of the longest existing ancestor, joined with the rest. */
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
