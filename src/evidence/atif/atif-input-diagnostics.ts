import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import { formatJsonPath } from '../../util/format-json-path.js';
import type { AtifTrajectory } from './atif-trajectory-schema.js';
import { invalidUtf8Diagnostics } from '../invalid-utf8-diagnostics.js';

const STEP_COUNTS = ['prompt_tokens', 'completion_tokens', 'cached_tokens'] as const;
const TOTAL_COUNTS = ['total_prompt_tokens', 'total_completion_tokens', 'total_cached_tokens'] as const;

/**
 * The diagnostics of one ATIF file: bytes that are not UTF-8 (with their offset, line and field path;
 * the text read has U+FFFD in their place) and token counts below zero in `steps[].metrics` and
 * `final_metrics`, embedded subagent trajectories included (left out of the token totals, see
 * `ATIFTraceHandle.normalizedTokenUsage`).
 *
 * @example
 * atifInputDiagnostics('a.atif.json', bytes, trajectory); // [{ code: 'negative_token_count', field: 'steps[1].metrics.prompt_tokens', ... }]
 */
export function atifInputDiagnostics(
  file: string,
  bytes: Uint8Array,
  trajectory: AtifTrajectory,
): TrialDiagnostic[] {
  const out = invalidUtf8Diagnostics(file, bytes);
  const visit = (t: AtifTrajectory, at: (string | number)[]): void => {
    t.steps.forEach((step, i) => {
      const m = step.metrics;
      if (m === undefined || m === null) return;
      for (const key of STEP_COUNTS) negative(m[key], [...at, 'steps', i, 'metrics', key]);
    });
    const fm = t.final_metrics;
    if (fm !== undefined && fm !== null)
      for (const key of TOTAL_COUNTS) negative(fm[key], [...at, 'final_metrics', key]);
    (t.subagent_trajectories ?? []).forEach((child, k) => visit(child, [...at, 'subagent_trajectories', k]));
  };
  const negative = (value: unknown, path: (string | number)[]): void => {
    if (typeof value !== 'number' || !(value < 0)) return;
    out.push({
      code: 'negative_token_count',
      message: `${String(path[path.length - 1])} is ${value}: left out of the token totals`,
      file,
      line: null,
      offset: null,
      field: formatJsonPath(path),
    });
  };
  visit(trajectory, []);
  return out;
}
