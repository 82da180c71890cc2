import { formatJsonPath } from '../../util/format-json-path.js';
import type { AtifIssue } from './atif-issue.js';

/**
 * Thrown when a trace that must be ATIF is not: unreadable, not JSON, or failing the schema. The
 * message names the file (or `<inline data>`) and the first problem's field path; `issues` has all.
 *
 * @example
 * try { await handle.trace(); } catch (e) { if (e instanceof AtifParseError) console.log(e.issues); }
 */
export class AtifParseError extends Error {
  override readonly name = 'AtifParseError';
  readonly code = 'atif_invalid';
  constructor(
    /** The file path, or `<inline data>`. */
    readonly source: string,
    readonly issues: AtifIssue[],
  ) {
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${formatJsonPath(first.path)}`;
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    super(`${source}: not a valid ATIF trajectory${where}: ${first?.message ?? 'unknown error'}${more}`);
  }
}
