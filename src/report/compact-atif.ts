import { compactJson } from './compact-json.js';
import { cutText } from './cut-text.js';
import type { CompactStep, CompactToolCall, CompactTrajectory } from './report-data.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Text of an ATIF message or observation content: a string, or ContentPart[] (text joined, media named). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === null || content === undefined ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (!isObj(part)) return String(part);
      if (part.type === 'text') return str(part.text) ?? '';
      const source = isObj(part.source) ? (str(part.source.path) ?? '') : '';
      return `[${String(part.type ?? 'part')}${source ? `: ${source}` : ''}]`;
    })
    .join('\n');
}

function resultText(result: Obj): string {
  const parts = [contentText(result.content)];
  if (Array.isArray(result.subagent_trajectory_ref)) {
    for (const ref of result.subagent_trajectory_ref) {
      if (isObj(ref)) parts.push(`[subagent: ${str(ref.trajectory_id) ?? str(ref.trajectory_path) ?? '?'}]`);
    }
  }
  return parts.filter((p) => p !== '').join('\n');
}

/** Options of {@link compactAtif}. */
export interface CompactAtifOptions {
  maxText: number;
  /** Most steps kept (default 400); the rest are summarised in `note`. */
  maxSteps?: number;
}

/**
 * Reduces an ATIF trajectory (parsed JSON, read leniently: unknown or malformed fields are skipped) to
 * the compact form the report embeds: each step's message, reasoning, tool calls with arguments and
 * the observation result joined on `tool_call_id`, and any unmatched observations. Null when the value
 * has no `steps` array.
 *
 * @example
 * compactAtif({ schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] }, { maxText: 4000 });
 */
export function compactAtif(trajectory: unknown, options: CompactAtifOptions): CompactTrajectory | null {
  if (!isObj(trajectory) || !Array.isArray(trajectory.steps)) return null;
  const maxSteps = options.maxSteps ?? 400;
  const limits = { maxText: options.maxText };
  const agentObj = isObj(trajectory.agent) ? trajectory.agent : null;
  const agent = agentObj
    ? [
        str(agentObj.name),
        str(agentObj.version),
        agentObj.model_name ? `(${String(agentObj.model_name)})` : null,
      ]
        .filter((p): p is string => p !== null && p !== '')
        .join(' ')
    : null;
  const steps: CompactStep[] = [];
  for (const raw of trajectory.steps.slice(0, maxSteps)) {
    if (!isObj(raw)) continue;
    const calls: CompactToolCall[] = [];
    const byId = new Map<string, CompactToolCall>();
    if (Array.isArray(raw.tool_calls)) {
      for (const call of raw.tool_calls) {
        if (!isObj(call)) continue;
        const compact: CompactToolCall = {
          id: str(call.tool_call_id),
          name: str(call.function_name) ?? '(unnamed)',
          arguments: compactJson(call.arguments ?? null, limits),
          result: null,
          isError: false,
        };
        calls.push(compact);
        if (compact.id !== null && !byId.has(compact.id)) byId.set(compact.id, compact);
      }
    }
    const observations: string[] = [];
    const results =
      isObj(raw.observation) && Array.isArray(raw.observation.results) ? raw.observation.results : [];
    for (const result of results) {
      if (!isObj(result)) continue;
      const text = cutText(resultText(result), options.maxText);
      const target = byId.get(str(result.source_call_id) ?? '\u0000');
      if (target && target.result === null) {
        target.result = text;
        target.isError = isObj(result.extra) && result.extra.is_error === true;
      } else {
        observations.push(text);
      }
    }
    const metrics = isObj(raw.metrics) ? raw.metrics : null;
    steps.push({
      id: num(raw.step_id),
      source: str(raw.source) ?? '?',
      model: str(raw.model_name),
      message: cutText(contentText(raw.message), options.maxText),
      reasoning:
        typeof raw.reasoning_content === 'string' ? cutText(raw.reasoning_content, options.maxText) : null,
      calls,
      observations,
      tokens: metrics ? [num(metrics.prompt_tokens), num(metrics.completion_tokens)] : null,
    });
  }
  const total = trajectory.steps.length;
  const notes: string[] = [];
  if (total > maxSteps) notes.push(`showing the first ${maxSteps} of ${total} steps`);
  if (Array.isArray(trajectory.subagent_trajectories) && trajectory.subagent_trajectories.length > 0) {
    notes.push(`${trajectory.subagent_trajectories.length} embedded subagent trajectories not shown`);
  }
  return {
    format: 'atif',
    agent: agent === '' ? null : agent,
    steps,
    calls: [],
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}
