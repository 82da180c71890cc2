import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** Every file under `dir` (relative posix path → bytes), for byte-for-byte bundle comparisons. */
export async function dirFiles(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.set(relative(dir, path).split('\\').join('/'), await readFile(path));
    }
  };
  await walk(dir);
  return out;
}

/** Asserts-friendly view: path → text, sorted by path. */
export async function dirTexts(dir: string): Promise<Record<string, string>> {
  const files = await dirFiles(dir);
  return Object.fromEntries(
    [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.toString('utf8')]),
  );
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'evalstream-bundle-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** `test/fixtures/bundle/<name>` as an absolute path. */
export function fixturePath(name: string): string {
  return new URL(`../fixtures/bundle/${name}`, import.meta.url).pathname;
}
