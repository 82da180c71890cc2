import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import type { TraceLoader } from '../evidence/trace-loader.js';
import type { NormalizedToolCall } from '../model/trajectory-view.js';
import type { EvidenceDescriptor, Trial } from '../model/trial.js';
import { compactJson, cutText, isObj, numOrNull, strOrNull } from './compact-json.js';
import type { CompactStep, CompactToolCall, CompactTrajectory } from './report-data.js';

/** Text of an ATIF message or observation content: a string, or ContentPart[] (text joined, media named). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === null || content === undefined ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (!isObj(part)) return String(part);
      if (part.type === 'text') return strOrNull(part.text) ?? '';
      const source = isObj(part.source) ? (strOrNull(part.source.path) ?? '') : '';
      return `[${String(part.type ?? 'part')}${source ? `: ${source}` : ''}]`;
    })
    .join('\n');
}

function resultText(result: Record<string, unknown>): string {
  const parts = [contentText(result.content)];
  if (Array.isArray(result.subagent_trajectory_ref)) {
    for (const ref of result.subagent_trajectory_ref) {
      if (isObj(ref))
        parts.push(`[subagent: ${strOrNull(ref.trajectory_id) ?? strOrNull(ref.trajectory_path) ?? '?'}]`);
    }
  }
  return parts.filter((p) => p !== '').join('\n');
}

/**
 * Reduces an ATIF trajectory (parsed JSON, read leniently: unknown or malformed fields are skipped) to
 * the compact form the report embeds: each step's message, reasoning, tool calls with arguments and
 * the observation result joined on `tool_call_id`, and any unmatched observations. Null when the value
 * has no `steps` array. At most `maxSteps` steps are kept (default 400); the rest are counted in `note`.
 *
 * @example
 * compactAtif({ schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] }, { maxText: 4000 });
 */
export function compactAtif(
  trajectory: unknown,
  options: { maxText: number; maxSteps?: number },
): CompactTrajectory | null {
  if (!isObj(trajectory) || !Array.isArray(trajectory.steps)) return null;
  const maxSteps = options.maxSteps ?? 400;
  const limits = { maxText: options.maxText };
  const agentObj = isObj(trajectory.agent) ? trajectory.agent : null;
  const agent = agentObj
    ? [
        strOrNull(agentObj.name),
        strOrNull(agentObj.version),
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
          id: strOrNull(call.tool_call_id),
          name: strOrNull(call.function_name) ?? '(unnamed)',
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
      const target = byId.get(strOrNull(result.source_call_id) ?? '\u0000');
      if (target && target.result === null) {
        target.result = text;
        target.isError = isObj(result.extra) && result.extra.is_error === true;
      } else {
        observations.push(text);
      }
    }
    const metrics = isObj(raw.metrics) ? raw.metrics : null;
    steps.push({
      id: numOrNull(raw.step_id),
      source: strOrNull(raw.source) ?? '?',
      model: strOrNull(raw.model_name),
      message: cutText(contentText(raw.message), options.maxText),
      reasoning:
        typeof raw.reasoning_content === 'string' ? cutText(raw.reasoning_content, options.maxText) : null,
      calls,
      observations,
      tokens: metrics ? [numOrNull(metrics.prompt_tokens), numOrNull(metrics.completion_tokens)] : null,
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

/**
 * The compact trajectory of a step-less trace (e.g. OTLP): its normalised tool calls with arguments
 * and results cut to `maxText` characters per string, at most `maxCalls` (default 400) calls.
 *
 * @example
 * compactToolCalls('otlp', view.normalizedToolCalls(), { maxText: 4000 });
 */
export function compactToolCalls(
  format: string,
  calls: readonly NormalizedToolCall[],
  options: { maxText: number; maxCalls?: number },
): CompactTrajectory {
  const maxCalls = options.maxCalls ?? 400;
  const limits = { maxText: options.maxText };
  return {
    format,
    agent: null,
    steps: [],
    calls: calls.slice(0, maxCalls).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: compactJson(call.arguments, limits),
      result: compactJson(call.result, limits),
      isError: call.isError,
    })),
    note: calls.length > maxCalls ? `showing the first ${maxCalls} of ${calls.length} tool calls` : null,
  };
}

/** Where {@link readTrialTrajectory} finds a trial's trace. */
export interface TrialTrajectorySource {
  /** The trial's live evidence as the pipeline carries it (traces already loaded stay loaded). */
  evidence?: CandidateEvidence | null;
  /** Directory that relative refs resolve against (the bundle directory); default the cwd. */
  baseDir?: string;
  /** Longest string kept (default 4000). */
  maxText?: number;
  /** Loaders for evidence read from descriptors (e.g. one `sharedOtlpFileLoader` for a whole run). */
  traceLoaders?: Record<string, TraceLoader>;
}

/** The trace the report shows: `trace`, else `trace:atif`, else the first descriptor of kind `trace`. */
function traceDescriptorOf(trial: Trial): [string, EvidenceDescriptor] | null {
  const descriptors = trial.evidence?.descriptors;
  if (!descriptors) return null;
  for (const name of ['trace', 'trace:atif']) {
    const d = descriptors[name];
    if (d) return [name, d];
  }
  return Object.entries(descriptors).find(([, d]) => d.kind === 'trace') ?? null;
}

async function readRawAtif(descriptor: EvidenceDescriptor, baseDir: string): Promise<unknown> {
  if (descriptor.data !== null && descriptor.data !== undefined) {
    return typeof descriptor.data === 'string' ? JSON.parse(descriptor.data) : descriptor.data;
  }
  const ref = descriptor.ref as string;
  const path = ref.startsWith('file://') ? fileURLToPath(ref) : isAbsolute(ref) ? ref : resolve(baseDir, ref);
  return JSON.parse(await readFile(path, 'utf8'));
}

/**
 * One trial's trajectory, compacted for the report, read while the trial is in hand: ATIF steps (read
 * leniently: a trajectory the strict reader refuses is still shown), or the normalised tool calls of
 * an OTLP trace through the trial's evidence handles. Resolves to null when the trial has no trace, or
 * to a note saying why it is not shown; never rejects for one bad trial.
 *
 * @example
 * const trajectory = await readTrialTrajectory(item.trial, { evidence: item.evidence });
 */
export async function readTrialTrajectory(
  trial: Trial,
  source: TrialTrajectorySource = {},
): Promise<CompactTrajectory | string | null> {
  const found = traceDescriptorOf(trial);
  if (!found || !trial.evidence) return null;
  const [name, descriptor] = found;
  if ((descriptor.data === null || descriptor.data === undefined) && !descriptor.ref) return null;
  const maxText = source.maxText ?? 4000;
  const baseDir = source.baseDir ?? source.evidence?.baseDir ?? process.cwd();
  const format = descriptor.format ?? 'atif';
  try {
    if (format === 'otlp') {
      const evidence =
        source.evidence ??
        new CandidateEvidence(trial.evidence, {
          baseDir,
          ...(source.traceLoaders === undefined ? {} : { traceLoaders: source.traceLoaders }),
        });
      const handle = await evidence.trace(name);
      return compactToolCalls('otlp', handle.normalizedToolCalls(), { maxText });
    }
    if (format !== 'atif') return `Trace in format '${format}' is not shown in the report.`;
    let raw: unknown = null;
    if (source.evidence) {
      try {
        raw = await (await source.evidence.trace(name, 'atif')).trace();
      } catch {
        raw = null; // the strict reader refused it: read it leniently below
      }
    }
    raw ??= await readRawAtif(descriptor, baseDir);
    return compactAtif(raw, { maxText }) ?? 'The trace is not an ATIF trajectory (no steps).';
  } catch (error) {
    return `Trajectory could not be read: ${(error as Error).message}`;
  }
}
