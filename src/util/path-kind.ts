import { statSync } from 'node:fs';

/**
 * Whether `path` is a regular file, following symlinks; false when it cannot be looked up. Synchronous,
 * like `readInputFile`: sources check many small paths, and a thread-pool round trip each cost more
 * than the lookup.
 *
 * @example
 * isFilePath('jobs/j1/t1/result.json'); // true
 */
export function isFilePath(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether `path` is a directory, following symlinks; false when it cannot be looked up.
 *
 * @example
 * isDirectoryPath('jobs/j1/t1'); // true
 */
export function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
