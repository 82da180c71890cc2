import type { z } from 'zod';
import { formatJsonPath } from '../util/format-json-path.js';

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

/**
 * One problem found in a run bundle, as data: which file, which line (1-based, for JSONL files), which
 * field (a path into the row) and what is wrong. `code` is a stable machine-readable tag.
 *
 * @example
 * const issue: BundleIssue = { code: 'invalid_row', file: 'scores.jsonl', line: 3, path: ['status'], message: 'Invalid option' };
 */
export interface BundleIssue {
  code:
    | 'missing_file'
    | 'invalid_json'
    | 'invalid_utf8'
    | 'invalid_row'
    | 'ref_escape'
    | 'truncated_line'
    | 'unreadable_file'
    | 'invalid_output_dir';
  /** Path of the file relative to the bundle directory (e.g. `scores.jsonl`), or absolute. */
  file: string;
  line?: number;
  path: (string | number)[];
  message: string;
}

/**
 * Formats an issue for people: `file:line: field.path[0]: message`.
 *
 * @example
 * formatBundleIssue({ code: 'invalid_row', file: 'scores.jsonl', line: 3, path: ['outputs', 0, 'name'], message: 'expected string' });
 * // 'scores.jsonl:3: outputs[0].name: expected string'
 */
export function formatBundleIssue(issue: BundleIssue): string {
  let out = issue.file;
  if (issue.line !== undefined) out += `:${issue.line}`;
  out += ': ';
  if (issue.path.length > 0) out += `${formatJsonPath(issue.path, /^[A-Za-z_][A-Za-z0-9_]*$/)}: `;
  return out + issue.message;
}
