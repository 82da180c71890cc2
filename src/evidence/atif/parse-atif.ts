import { formatJsonPath } from '../../util/format-json-path.js';
import { type AtifTrajectory, atifTrajectorySchema } from './atif-trajectory-schema.js';

/** Result of `parseAtif`: the trajectory, or every schema problem found. */
export type ParseAtifResult = { ok: true; trajectory: AtifTrajectory } | { ok: false; issues: AtifIssue[] };

/**
 * Validates a parsed JSON value as an ATIF trajectory (never throws).
 *
 * @example
 * const r = parseAtif(JSON.parse(text));
 * if (!r.ok) console.error(r.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
 */
export function parseAtif(payload: unknown): ParseAtifResult {
  const r = atifTrajectorySchema.safeParse(payload);
  if (r.success) return { ok: true, trajectory: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => ({
      code: i.code,
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
      severity: 'error' as const,
    })),
  };
}

/**
 * Reads a file's bytes as an ATIF trajectory: the trajectory, or why not in one line (`not valid
 * JSON: …`, `not a valid ATIF trajectory at steps[1].source: …`) with the first problem's field path
 * (dotted; '' when there is none).
 *
 * @example
 * const r = parseAtifBytes(readFileSync('a.atif.json'));
 * if (!r.ok) console.error(r.reason, r.field);
 */
export function parseAtifBytes(
  bytes: Buffer,
): { ok: true; trajectory: AtifTrajectory } | { ok: false; reason: string; field: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}`, field: '' };
  }
  const parsed = parseAtif(payload);
  if (parsed.ok) return parsed;
  const first = parsed.issues[0];
  const at = first === undefined || first.path.length === 0 ? '' : ` at ${formatJsonPath(first.path)}`;
  return {
    ok: false,
    reason: `not a valid ATIF trajectory${at}: ${first?.message ?? 'invalid'}`,
    field: first?.path.join('.') ?? '',
  };
}

/**
 * One problem found in an ATIF document (errors as data). `path` is the JSON path inside the
 * document (`['steps', 2, 'tool_calls', 0, 'arguments']`).
 *
 * @example
 * const issue: AtifIssue = { code: 'invalid_type', path: ['steps', 0, 'source'], message: 'Invalid option' };
 */
export interface AtifIssue {
  code: string;
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
}

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
