import type { AtifIssue } from './atif-issue.js';
import { atifTrajectorySchema } from './atif-trajectory-schema.js';
import type { AtifTrajectory } from './atif-trajectory-schema.js';

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
