import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { compareCodePoints } from '../../pycompat/compare-code-points.js';

const MAGIC = /[*?[]/;

/** Python's `fnmatch.translate` for one path component (case-sensitive, as on POSIX). */
function componentRegExp(pattern: string): RegExp {
  let re = '';
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    i++;
    if (c === '*') {
      if (!re.endsWith('.*')) re += '.*';
    } else if (c === '?') re += '.';
    else if (c === '[') {
      let j = i;
      if (j < n && pattern[j] === '!') j++;
      if (j < n && pattern[j] === ']') j++;
      while (j < n && pattern[j] !== ']') j++;
      if (j >= n) re += '\\[';
      else {
        let stuff = pattern.slice(i, j).replace(/\\/g, '\\\\');
        i = j + 1;
        if (stuff.startsWith('!')) stuff = '^' + stuff.slice(1);
        else if (stuff.startsWith('^')) stuff = '\\' + stuff;
        re += `[${stuff.replace(/]/g, '\\]')}]`;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^(?:${re})$`, 's');
}

function exists(path: string, dirOnly: boolean): boolean {
  try {
    if (dirOnly) return statSync(path).isDirectory();
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function listDir(dir: string, dirOnly: boolean): string[] {
  try {
    const entries = readdirSync(dir === '' ? '.' : dir, { withFileTypes: true });
    const names: string[] = [];
    for (const e of entries) {
      if (dirOnly) {
        let isDir = e.isDirectory();
        if (!isDir && e.isSymbolicLink()) isDir = exists(join(dir === '' ? '.' : dir, e.name), true);
        if (!isDir) continue;
      }
      names.push(e.name);
    }
    return names;
  } catch {
    return [];
  }
}

function splitPath(p: string): [string, string] {
  const i = p.lastIndexOf(sep);
  if (i < 0) return ['', p];
  let head = p.slice(0, i + 1);
  if (head !== sep.repeat(head.length)) head = head.replace(/\/+$/, '');
  return [head, p.slice(i + 1)];
}

/** Python's `glob.glob(pattern)` (non-recursive, hidden names only when the pattern starts with '.'). */
function pyGlob(pattern: string, dirOnly = false): string[] {
  const [dirname, basename] = splitPath(pattern);
  if (!MAGIC.test(pattern)) {
    if (basename === '') return exists(dirname, true) ? [pattern] : [];
    return exists(pattern, dirOnly) ? [pattern] : [];
  }
  if (dirname === '') return matchIn('', basename, dirOnly);
  const dirs = dirname !== pattern && MAGIC.test(dirname) ? pyGlob(dirname, true) : [dirname];
  const out: string[] = [];
  for (const d of dirs) {
    if (MAGIC.test(basename)) {
      for (const name of matchIn(d, basename, dirOnly)) out.push(join(d, name));
    } else if (basename === '' ? exists(d, true) : exists(join(d, basename), dirOnly)) {
      out.push(basename === '' ? d : join(d, basename));
    }
  }
  return out;
}

function matchIn(dir: string, basename: string, dirOnly: boolean): string[] {
  const re = componentRegExp(basename);
  const hiddenOk = basename.startsWith('.');
  return listDir(dir, dirOnly).filter((name) => (hiddenOk || !name.startsWith('.')) && re.test(name));
}

/** One matched input file and the pattern that matched it. */
export interface MatchedInput {
  path: string;
  /** The comma-separated pattern this path came from. */
  pattern: string;
  /** Whether that pattern has glob magic (`*`, `?`, `[`). */
  fromGlob: boolean;
}

/**
 * `gym eval aggregate`'s `--input-glob`: split on commas, trim, drop empty patterns; expand each with
 * Python's `glob.glob` rules, sort each pattern's matches by code point, concatenate in pattern order
 * and skip a path already seen (compared as resolved absolute paths, so `./a` and `a` are the same).
 *
 * @example
 * expandInputGlob('results/rollouts-rs*.jsonl, extra/rollouts.jsonl');
 */
export function expandInputGlob(inputGlob: string): MatchedInput[] {
  const patterns = inputGlob
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const seen = new Set<string>();
  const out: MatchedInput[] = [];
  for (const pattern of patterns) {
    const fromGlob = MAGIC.test(pattern);
    for (const path of pyGlob(pattern).sort(compareCodePoints)) {
      const key = resolve(path);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ path, pattern, fromGlob });
    }
  }
  return out;
}
