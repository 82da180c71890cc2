/*
 * Exact-shape checks of bundle rows, run before zod: a row that passes is the row zod would accept,
 * and only rows that fail go to zod for its error message. Scores and trials only: a bundle has few
 * task rows. Kept because zod alone cost 1.5x the CPU
 * of `summarize --engine memory --no-report` on a 1M-output bundle (6.8-7.0 s against 4.5-4.7 s).
 * test/bundle checks that both paths agree.
 */
import type { ScoreRecord } from '../model/score-record.js';
import type { Trial } from '../model/trial.js';

const STATUSES = new Set(['completed', 'failed', 'partial']);
const SEVERITIES = new Set(['error', 'warning', 'info']);

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasExactly(o: Obj, n: number): boolean {
  let count = 0;
  for (const _ in o) count++;
  return count === n;
}

function isStringOrNull(v: unknown): boolean {
  return v === null || typeof v === 'string';
}

function isCount(v: unknown): boolean {
  return v === null || (Number.isSafeInteger(v) && (v as number) >= 0);
}

function isFiniteOrNull(v: unknown): boolean {
  return v === null || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Fast exact-shape checks for the rows the SDK itself writes (every key present, nothing extra). They
 * accept a strict subset of what `rowSchemas` accepts, so a row that passes needs no zod pass and no
 * defaults; anything else goes through zod, which stays the authority and reports the error.
 *
 * @example
 * const row = JSON.parse(line);
 * const score = rowFastChecks.score(row) ? row : rowSchemas.score.parse(row);
 */
export const rowFastChecks = {
  /** A complete `AgentEvalTaskScore` row. */
  score(v: unknown): v is ScoreRecord {
    if (!isObject(v) || !hasExactly(v, 9)) return false;
    if (
      typeof v['id'] !== 'string' ||
      typeof v['run_id'] !== 'string' ||
      typeof v['task_id'] !== 'string' ||
      typeof v['trial_id'] !== 'string' ||
      typeof v['metric_type'] !== 'string' ||
      !STATUSES.has(v['status'] as string) ||
      !isObject(v['metadata'])
    ) {
      return false;
    }
    const outputs = v['outputs'];
    if (!Array.isArray(outputs)) return false;
    for (const o of outputs) {
      if (!isObject(o) || !hasExactly(o, 2) || typeof o['name'] !== 'string' || o['value'] === undefined)
        return false;
    }
    const diagnostics = v['diagnostics'];
    if (!Array.isArray(diagnostics)) return false;
    for (const d of diagnostics) {
      if (
        !isObject(d) ||
        !hasExactly(d, 4) ||
        !SEVERITIES.has(d['severity'] as string) ||
        typeof d['message'] !== 'string' ||
        !isStringOrNull(d['source']) ||
        !isObject(d['details'])
      ) {
        return false;
      }
    }
    return true;
  },

  /** A complete `AgentEvalTrial` row (spec §4 rules included). */
  trial(v: unknown): v is Trial {
    if (!isObject(v) || !hasExactly(v, 8)) return false;
    const id = v['id'];
    const taskId = v['task_id'];
    const status = v['status'];
    if (typeof id !== 'string' || id === '' || typeof taskId !== 'string' || taskId === '') return false;
    if (!STATUSES.has(status as string) || !isObject(v['metadata'])) return false;
    const output = v['output'];
    if (output === null) {
      if (status === 'completed') return false;
    } else if (
      !isObject(output) ||
      !hasExactly(output, 3) ||
      !isStringOrNull(output['output_text']) ||
      output['response'] === undefined ||
      !isObject(output['metadata'])
    ) {
      return false;
    }
    const error = v['error'];
    if (
      error !== null &&
      (!isObject(error) ||
        !hasExactly(error, 4) ||
        typeof error['type'] !== 'string' ||
        error['type'].trim() === '' ||
        !isStringOrNull(error['message']) ||
        !isStringOrNull(error['traceback']) ||
        !isStringOrNull(error['occurred_at']))
    ) {
      return false;
    }
    const m = v['measurements'];
    if (
      !isObject(m) ||
      !hasExactly(m, 7) ||
      !isCount(m['prompt_tokens']) ||
      !isCount(m['completion_tokens']) ||
      !isCount(m['total_tokens']) ||
      !isCount(m['cache_creation_tokens']) ||
      !isCount(m['cache_read_tokens']) ||
      !isFiniteOrNull(m['runtime_sec']) ||
      !isFiniteOrNull(m['cost_usd'])
    ) {
      return false;
    }
    const evidence = v['evidence'];
    if (evidence === null) return true;
    if (!isObject(evidence) || !hasExactly(evidence, 2) || !isObject(evidence['metadata'])) return false;
    const descriptors = evidence['descriptors'];
    if (!isObject(descriptors)) return false;
    for (const key in descriptors) {
      const d = descriptors[key];
      if (
        !isObject(d) ||
        !hasExactly(d, 6) ||
        typeof d['kind'] !== 'string' ||
        !isStringOrNull(d['format']) ||
        !isStringOrNull(d['ref']) ||
        d['data'] === undefined ||
        !isStringOrNull(d['description']) ||
        !isObject(d['metadata']) ||
        ((d['ref'] === null || d['ref'] === '') && d['data'] === null)
      ) {
        return false;
      }
    }
    return true;
  },
} as const;
