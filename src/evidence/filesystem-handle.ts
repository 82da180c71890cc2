import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pyRepr } from '../pycompat/py-repr.js';
import { EvidenceValueError } from './evidence-value-error.js';
import { pySplitlines } from './py-splitlines.js';
import { unifiedDiff } from './unified-diff.js';
import { sortByUtf8 } from '../util/sort-by-utf8.js';

/** One path that differs between two snapshots. */
export interface FilesystemEntry {
  path: string;
  change_type: 'added' | 'deleted' | 'modified';
}

/** `diff()` result: all `added` (sorted), then `deleted`, then `modified`. */
export interface FilesystemDiff {
  entries: FilesystemEntry[];
}

/** Options of `runVerifier`. */
export interface RunVerifierOptions {
  /** Working directory inside the copy (default `.`); must not resolve outside it. */
  cwd?: string;
  /** `{relativePath: text}` written over the copy before the command runs (held-out tests...). */
  overlayFiles?: Record<string, string>;
  /** Kill the command's whole process group after this many seconds. */
  timeoutS?: number;
}

/** Outcome of `runVerifier`; `ok` = exit code 0 and no timeout; a timeout gives exit code −1. */
export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ok: boolean;
}

/**
 * Constrained handle over a local directory of filesystem evidence (spec §5): every path is resolved
 * (symlinks included) and refused with `EvidenceValueError` when it lands outside the root.
 *
 * @example
 * const before = new FilesystemHandle('/runs/r1/initial'), after = new FilesystemHandle('/runs/r1/final');
 * const changed = (await before.diff(after)).entries; // [{ path: 'src/a.py', change_type: 'modified' }]
 * const r = await after.runVerifier(['python', '-m', 'pytest', '-q'], { timeoutS: 60 });
 */
export class FilesystemHandle {
  /** The resolved (real) root directory. */
  readonly root: string;

  constructor(root: string) {
    const abs = resolve(root);
    this.root = existsSync(abs) ? realpathSync(abs) : abs;
  }

  /** Absolute path of `rel` under the root (symlinks resolved); throws when it escapes the root. */
  path(rel = '.'): string {
    const candidate = resolveReal(isAbsolute(rel) ? rel : `${this.root}${sep}${rel}`);
    if (!within(this.root, candidate)) {
      throw new EvidenceValueError(`evidence path ${pyRepr(rel)} resolves outside evidence root`);
    }
    return candidate;
  }

  /** Whether `rel` exists under the root. */
  async exists(rel = '.'): Promise<boolean> {
    const p = this.path(rel);
    return stat(p).then(
      () => true,
      () => false,
    );
  }

  /** A file's text (UTF-8 by default). */
  async readText(rel: string, encoding: BufferEncoding = 'utf8'): Promise<string> {
    return readFile(this.path(rel), encoding);
  }

  /** A file's bytes. */
  async readBytes(rel: string): Promise<Buffer> {
    return readFile(this.path(rel));
  }

  /**
   * Entries (files and directories) under `rel`, as sorted relative posix paths; a file gives itself.
   * Symlinked directories are listed, not descended.
   */
  async iterPaths(rel = '.', options: { recursive?: boolean } = {}): Promise<string[]> {
    const base = this.path(rel);
    const st = await stat(base);
    if (st.isFile()) return [this.#rel(base)];
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const d of await readdir(dir, { withFileTypes: true })) {
        const full = join(dir, d.name);
        out.push(this.#rel(full));
        if (options.recursive === true && d.isDirectory()) await walk(full);
      }
    };
    await walk(base);
    return sortPaths(out);
  }

  /** Files (not directories) matching a pathlib-style glob, sorted; links escaping the root skipped. */
  async listFiles(pattern = '**/*'): Promise<string[]> {
    const re = globToRegExp(pattern);
    const out: string[] = [];
    for (const full of await this.#files(true)) {
      const rel = this.#rel(full);
      if (re.test(rel)) out.push(rel);
    }
    return sortPaths(out);
  }

  /** This snapshot (before) against `other` (after), by SHA-256 of file contents. */
  async diff(other: FilesystemHandle): Promise<FilesystemDiff> {
    const before = await this.#hashes();
    const after = await other.#hashes();
    const added = sortPaths([...after.keys()].filter((p) => !before.has(p)));
    const deleted = sortPaths([...before.keys()].filter((p) => !after.has(p)));
    const modified = sortPaths(
      [...before.keys()].filter((p) => after.has(p) && after.get(p) !== before.get(p)),
    );
    return {
      entries: [
        ...added.map((path) => ({ path, change_type: 'added' as const })),
        ...deleted.map((path) => ({ path, change_type: 'deleted' as const })),
        ...modified.map((path) => ({ path, change_type: 'modified' as const })),
      ],
    };
  }

  /** Unified diff of one path, this (before) → `other` (after); `''` when identical or binary. */
  async unifiedDiff(other: FilesystemHandle, rel: string, context = 3): Promise<string> {
    const read = async (p: string): Promise<Buffer> =>
      (await stat(p).then(
        (s) => s.isFile(),
        () => false,
      ))
        ? readFile(p)
        : Buffer.alloc(0);
    const before = await read(this.path(rel));
    const after = await read(other.path(rel));
    if (before.equals(after)) return '';
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let a: string;
    let b: string;
    try {
      a = decoder.decode(before);
      b = decoder.decode(after);
    } catch {
      return '';
    }
    const name = rel.split(sep).join('/');
    return unifiedDiff(pySplitlines(a, true), pySplitlines(b, true), `a/${name}`, `b/${name}`, context);
  }

  /**
   * Runs `command` (argv, no shell) in a throwaway copy of the root with `overlayFiles` written over
   * it; the copy is removed afterwards. Not a sandbox: the command has the host's privileges.
   * Absolute symlinks and links escaping the root are not copied.
   */
  async runVerifier(command: string[], options: RunVerifierOptions = {}): Promise<CommandResult> {
    const cwd = options.cwd ?? '.';
    const sandbox = realpathSync(await mkdtemp(join(tmpdir(), 'evidence-verify-')));
    try {
      const workdir = resolve(sandbox, cwd);
      if (!within(sandbox, workdir)) {
        throw new EvidenceValueError(`verifier cwd ${pyRepr(cwd)} resolves outside evidence overlay`);
      }
      await this.#copyInto(this.root, sandbox);
      for (const [rel, text] of Object.entries(options.overlayFiles ?? {})) {
        const target = resolveReal(isAbsolute(rel) ? rel : `${sandbox}${sep}${rel}`);
        if (!within(sandbox, target)) {
          throw new EvidenceValueError(`overlay file path escapes the verifier copy: ${pyRepr(rel)}`);
        }
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, text, 'utf8');
      }
      return await execute(command, workdir, options.timeoutS);
    } finally {
      await rm(sandbox, { recursive: true, force: true });
    }
  }

  #rel(full: string): string {
    return relative(this.root, full).split(sep).join('/');
  }

  /** Regular files under the root, recursing into real directories only; escaping links skipped. */
  async #files(followFileLinks: boolean): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const d of entries) {
        const full = join(dir, d.name);
        if (d.isDirectory()) await walk(full);
        else if (d.isFile()) out.push(full);
        else if (d.isSymbolicLink() && followFileLinks) {
          const st = await stat(full).catch(() => null);
          if (st?.isFile() === true && within(this.root, resolveReal(full))) out.push(full);
        }
      }
    };
    await walk(this.root);
    return out;
  }

  async #hashes(): Promise<Map<string, string>> {
    const hashes = new Map<string, string>();
    for (const full of await this.#files(true)) hashes.set(this.#rel(full), await sha256File(full));
    return hashes;
  }

  async #copyInto(src: string, dst: string): Promise<void> {
    await mkdir(dst, { recursive: true });
    for (const d of await readdir(src, { withFileTypes: true })) {
      const from = join(src, d.name);
      const to = join(dst, d.name);
      if (d.isSymbolicLink()) {
        const target = await readlink(from);
        if (isAbsolute(target) || !within(this.root, resolveReal(from))) continue;
        await symlink(target, to);
      } else if (d.isDirectory()) await this.#copyInto(from, to);
      else if (d.isFile()) await copyFile(from, to);
    }
  }
}

function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves a path like Python's `Path.resolve(strict=False)`: components are walked in order and
 * symlinks expanded as they are met (so `link/..` follows the link first, as the OS would); the
 * part from the first missing component on is normalised lexically.
 */
function resolveReal(p: string): string {
  // No lexical normalisation first: `link/..` must go through the link, as the OS does.
  const parts = (isAbsolute(p) ? p : resolve(p)).split(sep).filter((s) => s !== '');
  let cur: string = sep;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    if (part === '.') continue;
    if (part === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, part);
    let st;
    try {
      st = lstatSync(next);
    } catch {
      return resolve(next, ...parts.slice(i + 1));
    }
    if (st.isSymbolicLink()) {
      try {
        cur = realpathSync(next);
      } catch {
        // Broken link: follow it one level lexically.
        cur = resolve(cur, readlinkSync(next));
      }
    } else cur = next;
  }
  return cur;
}

function sortPaths(paths: string[]): string[] {
  return sortByUtf8(paths, (p) => p);
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function execute(command: string[], cwd: string, timeoutS: number | undefined): Promise<CommandResult> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.reject(new EvidenceValueError('verifier command is empty'));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let timedOut = false;
    const timer =
      timeoutS === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            try {
              if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
            } catch {
              // the group is already gone
            }
          }, timeoutS * 1000);
    child.on('error', (e) => {
      if (timer !== null) clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      if (timer !== null) clearTimeout(timer);
      if (timedOut) {
        resolvePromise({ exitCode: -1, stdout: '', stderr: '', timedOut: true, ok: false });
        return;
      }
      const exitCode = code ?? (signal === null ? -1 : -(osConstants.signals[signal] ?? 1));
      const decode = (chunks: Buffer[]): string => new TextDecoder('utf-8').decode(Buffer.concat(chunks));
      resolvePromise({
        exitCode,
        stdout: decode(out),
        stderr: decode(err),
        timedOut: false,
        ok: exitCode === 0,
      });
    });
  });
}

/**
 * Compiles a pathlib-style glob over relative posix paths: `*` and `?` stay within one segment,
 * `[...]`/`[!...]` are character classes, and a `**` segment matches zero or more directories.
 *
 * @example
 * globToRegExp('**\/*.py').test('src/a.py'); // true
 * globToRegExp('*.py').test('src/a.py'); // false
 */
export function globToRegExp(pattern: string): RegExp {
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  let re = '';
  segments.forEach((seg, idx) => {
    const last = idx === segments.length - 1;
    if (seg === '**') {
      re += last ? '(?:[^/]+(?:/[^/]+)*)?' : '(?:[^/]+/)*';
      return;
    }
    re += segmentRegExp(seg) + (last ? '' : '/');
  });
  return new RegExp(`^${re}$`, 'u');
}

function segmentRegExp(seg: string): string {
  let out = '';
  for (let i = 0; i < seg.length; i += 1) {
    const c = seg[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        const negate = body.startsWith('!');
        if (negate) body = body.slice(1);
        out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return out;
}
