import type { z } from 'zod';
import type { BundleIssue } from './bundle-issue.js';
import { formatBundleIssue } from './format-bundle-issue.js';

/**
 * Thrown when a bundle cannot be read or written; carries the issues as data and a message that
 * names the file, line and field of the first one.
 *
 * @example
 * try { await readBundle(dir); } catch (e) { if (e instanceof BundleReadError) console.error(e.issues[0]?.line); }
 */
export class BundleReadError extends Error {
  constructor(readonly issues: readonly BundleIssue[]) {
    super(issues.map(formatBundleIssue).join('\n'));
    this.name = 'BundleReadError';
  }

  /** The error for a row that failed zod validation: its first five issues, as `invalid_row`. */
  static fromZod(error: z.ZodError, file: string, line?: number): BundleReadError {
    return new BundleReadError(
      error.issues.slice(0, 5).map((i) => ({
        code: 'invalid_row' as const,
        file,
        ...(line === undefined ? {} : { line }),
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      })),
    );
  }

  /** The error of a file that is not there (`missing_file`), `message` saying what to do. */
  static missingFile(file: string, message: string): BundleReadError {
    return new BundleReadError([{ code: 'missing_file', file, path: [], message }]);
  }
}
