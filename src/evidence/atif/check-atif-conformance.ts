import type { AtifIssue } from './parse-atif.js';
import { type AtifContentPart, type AtifTrajectory, atifMinorVersion } from './atif-trajectory-schema.js';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const AUDIO_TYPES = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/ogg',
  'audio/flac',
  'audio/x-flac',
  'audio/webm',
  'audio/aiff',
  'audio/x-aiff',
]);
const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;
// ISO 8601 date-time as validators accept it: date, 'T' or space, time, optional fraction and offset.
const ISO_8601 = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

type Path = (string | number)[];

/**
 * Checks the cross-field rules of ATIF (RFC 0001 §6) that the schema does not: sequential `step_id`,
 * ISO 8601 timestamps, agent-only fields, `source_call_id` joins, `llm_call_count: 0`, subagent ids
 * and refs, content-part rules per version, and consistency warnings (`cached ≤ prompt`, negative
 * numbers, `total_steps`). Reports every problem, never throws.
 *
 * @example
 * const issues = checkAtifConformance(trajectory).filter((i) => i.severity === 'error');
 */
export function checkAtifConformance(trajectory: AtifTrajectory): AtifIssue[] {
  const issues: AtifIssue[] = [];
  checkTrajectory(trajectory, [], issues);
  return issues;
}

function checkTrajectory(t: AtifTrajectory, base: Path, issues: AtifIssue[]): void {
  const v = atifMinorVersion(t.schema_version) ?? Number.POSITIVE_INFINITY;
  const err = (path: Path, code: string, message: string): void => {
    issues.push({ code, path: [...base, ...path], message, severity: 'error' });
  };
  const warn = (path: Path, code: string, message: string): void => {
    issues.push({ code, path: [...base, ...path], message, severity: 'warning' });
  };
  if (atifMinorVersion(t.schema_version) === null) {
    warn(['schema_version'], 'unknown_version', `unknown schema_version ${t.schema_version}`);
  }
  const embeddedIds = new Set<string>();
  (t.subagent_trajectories ?? []).forEach((child, i) => {
    if (typeof child.trajectory_id !== 'string') {
      err(
        ['subagent_trajectories', i, 'trajectory_id'],
        'missing_trajectory_id',
        'embedded subagent needs a trajectory_id',
      );
    } else if (embeddedIds.has(child.trajectory_id)) {
      err(
        ['subagent_trajectories', i, 'trajectory_id'],
        'duplicate_trajectory_id',
        `duplicate trajectory_id ${child.trajectory_id}`,
      );
    } else embeddedIds.add(child.trajectory_id);
  });
  if (t.subagent_trajectories !== undefined && t.subagent_trajectories !== null && v < 7) {
    warn(['subagent_trajectories'], 'version_feature', 'subagent_trajectories needs ATIF-v1.7');
  }

  t.steps.forEach((step, i) => {
    const at = (...p: Path): Path => ['steps', i, ...p];
    if (step.step_id !== i + 1) {
      err(
        at('step_id'),
        'step_id_sequence',
        `step_id: expected ${i + 1} (sequential from 1), got ${step.step_id}`,
      );
    }
    if (
      typeof step.timestamp === 'string' &&
      (!ISO_8601.test(step.timestamp) || Number.isNaN(Date.parse(step.timestamp)))
    ) {
      err(at('timestamp'), 'invalid_timestamp', `timestamp is not ISO 8601: ${step.timestamp}`);
    }
    if (step.source !== 'agent') {
      for (const f of AGENT_ONLY) {
        if (step[f] !== undefined && step[f] !== null) {
          err(at(f), 'agent_only_field', `${f} is only allowed on agent steps (source is ${step.source})`);
        }
      }
      if (step.source === 'user' && step.observation !== undefined && step.observation !== null) {
        err(at('observation'), 'agent_only_field', 'observation is not allowed on user steps');
      }
      if (step.source === 'system' && step.observation !== undefined && step.observation !== null && v < 2) {
        err(at('observation'), 'version_feature', 'observation on system steps needs ATIF-v1.2');
      }
    }
    if (step.source === 'agent' && step.llm_call_count === 0) {
      if (step.metrics !== undefined && step.metrics !== null) {
        err(at('metrics'), 'llm_call_count_zero', 'llm_call_count 0 (no inference) forbids metrics');
      }
      if (step.reasoning_content !== undefined && step.reasoning_content !== null) {
        err(
          at('reasoning_content'),
          'llm_call_count_zero',
          'llm_call_count 0 (no inference) forbids reasoning_content',
        );
      }
    }
    checkContent(step.message, at('message'), v, err);
    const callIds = new Set<string>();
    (step.tool_calls ?? []).forEach((c, j) => {
      if (callIds.has(c.tool_call_id)) {
        warn(
          at('tool_calls', j, 'tool_call_id'),
          'duplicate_tool_call_id',
          `duplicate tool_call_id ${c.tool_call_id} in one step (results are ambiguous)`,
        );
      }
      callIds.add(c.tool_call_id);
    });
    (step.observation?.results ?? []).forEach((r, j) => {
      const rp = (...p: Path): Path => at('observation', 'results', j, ...p);
      if (typeof r.source_call_id === 'string' && !callIds.has(r.source_call_id)) {
        err(
          rp('source_call_id'),
          'unknown_source_call_id',
          `source_call_id ${r.source_call_id} names no tool_call_id of this step`,
        );
      }
      if (Array.isArray(r.content))
        checkContent(r.content as unknown as AtifContentPart[], rp('content'), v, err);
      (r.subagent_trajectory_ref ?? []).forEach((ref, k) => {
        const hasId = typeof ref.trajectory_id === 'string';
        const hasPath = typeof ref.trajectory_path === 'string';
        if (v >= 7 && !hasId && !hasPath) {
          err(
            rp('subagent_trajectory_ref', k),
            'unresolvable_ref',
            'a subagent ref needs trajectory_id or trajectory_path',
          );
        }
        if (hasId && !hasPath && !embeddedIds.has(ref.trajectory_id as string) && v >= 7) {
          err(
            rp('subagent_trajectory_ref', k, 'trajectory_id'),
            'unresolvable_ref',
            `trajectory_id ${String(ref.trajectory_id)} matches no embedded subagent trajectory`,
          );
        }
      });
    });
    const m = step.metrics;
    if (m !== undefined && m !== null) {
      for (const f of ['prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd'] as const) {
        const x = m[f];
        if (typeof x === 'number' && x < 0) warn(at('metrics', f), 'negative_number', `${f} is negative`);
      }
      if (
        typeof m.cached_tokens === 'number' &&
        typeof m.prompt_tokens === 'number' &&
        m.cached_tokens > m.prompt_tokens
      ) {
        warn(at('metrics', 'cached_tokens'), 'cached_exceeds_prompt', 'cached_tokens exceeds prompt_tokens');
      }
    }
  });
  const total = t.final_metrics?.total_steps;
  if (typeof total === 'number' && total !== t.steps.length && (t.notes ?? '') === '') {
    warn(
      ['final_metrics', 'total_steps'],
      'total_steps_mismatch',
      `total_steps ${total} differs from ${t.steps.length} steps and no notes explain it`,
    );
  }
  (t.subagent_trajectories ?? []).forEach((child, i) =>
    checkTrajectory(child, [...base, 'subagent_trajectories', i], issues),
  );
}

function checkContent(
  content: unknown,
  path: Path,
  v: number,
  err: (path: Path, code: string, message: string) => void,
): void {
  if (!Array.isArray(content)) return;
  if (v < 6) err(path, 'version_feature', 'content-part arrays need ATIF-v1.6');
  (content as AtifContentPart[]).forEach((part, i) => {
    const hasText = part.text !== undefined && part.text !== null;
    const hasSource = part.source !== undefined && part.source !== null;
    if (part.type === 'text') {
      if (!hasText) err([...path, i, 'text'], 'content_part', 'a text part needs text');
      if (hasSource) err([...path, i, 'source'], 'content_part', 'a text part must not carry source');
      return;
    }
    if (hasText) err([...path, i, 'text'], 'content_part', `an ${part.type} part must not carry text`);
    if (!hasSource) {
      err([...path, i, 'source'], 'content_part', `an ${part.type} part needs source`);
      return;
    }
    const mediaType = part.source?.media_type ?? '';
    if (part.type === 'image' && !IMAGE_TYPES.has(mediaType)) {
      err([...path, i, 'source', 'media_type'], 'media_type', `unsupported image media_type ${mediaType}`);
    }
    if (part.type === 'audio') {
      if (v < 8) err([...path, i], 'version_feature', 'audio parts need ATIF-v1.8');
      if (!AUDIO_TYPES.has(mediaType)) {
        err([...path, i, 'source', 'media_type'], 'media_type', `unsupported audio media_type ${mediaType}`);
      }
    }
  });
}
