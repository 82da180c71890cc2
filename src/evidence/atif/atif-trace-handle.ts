import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { JsonValue } from '../../model/json-value.js';
import type {
  NormalizedTokenUsage,
  NormalizedToolCall,
  TrajectoryView,
} from '../../model/trajectory-view.js';
import type { EvidenceDescriptor } from '../../model/trial.js';
import { appendAll } from '../../util/append-all.js';
import { EvidenceValueError } from '../evidence-value-error.js';
import { type AtifIssue, AtifParseError, parseAtif } from './parse-atif.js';
import type { AtifFinalMetrics, AtifStep, AtifToolCall, AtifTrajectory } from './atif-trajectory-schema.js';
import { checkAtifConformance } from './check-atif-conformance.js';

/** Options of an ATIF handle's normalised (`TrajectoryView`) readings. */
export interface AtifViewOptions {
  /**
   * Include embedded `subagent_trajectories` (and local `trajectory_path` files) in tool calls, step
   * counts and token sums. Default false, like the SDK.
   */
  includeSubagents?: boolean;
}

/** Options of `ATIFTraceHandle.toolCalls`. Defaults reproduce the SDK (`tool_calls()`). */
export interface AtifToolCallsOptions {
  includeSubagents?: boolean;
  /** Leave out calls of steps with `is_copied_context: true`. */
  skipCopiedContext?: boolean;
}

type Source =
  | { kind: 'trajectory'; trajectory: AtifTrajectory; file: string | null }
  | { kind: 'data'; data: JsonValue }
  | { kind: 'file'; path: string };

/**
 * Read handle over an ATIF trace (spec §5): `trace()`, `steps()`, `toolCalls()`, `tokenUsage()` follow
 * the SDK exactly; the `TrajectoryView` methods give the normalised view trajectory metrics use
 * (copied-context steps left out, observation results joined to calls by `source_call_id`, token
 * counts below zero left out of the totals: a negative `final_metrics` total gives way to the sum of
 * the steps' counts, which leaves out the negative ones). The file
 * is read and validated once, on first use; a bad document throws `AtifParseError`.
 *
 * @example
 * const h = ATIFTraceHandle.fromFile('agent/trajectory.json');
 * const calls = await h.toolCalls(); // SDK view
 * const n = h.normalizedToolCalls().length; // metric view
 */
export class ATIFTraceHandle implements TrajectoryView {
  readonly format = 'atif' as const;
  #source: Source;
  #trajectory: AtifTrajectory | null = null;
  readonly #options: AtifViewOptions;

  private constructor(source: Source, options: AtifViewOptions) {
    this.#source = source;
    this.#options = options;
    if (source.kind === 'trajectory') this.#trajectory = source.trajectory;
  }

  /** A handle over an evidence descriptor (inline `data` wins over `ref`, as in the SDK). */
  static fromDescriptor(
    descriptor: EvidenceDescriptor,
    resolveRef: (ref: string) => string,
    options: AtifViewOptions = {},
  ): ATIFTraceHandle {
    if (descriptor.data !== null && descriptor.data !== undefined) {
      return new ATIFTraceHandle({ kind: 'data', data: descriptor.data }, options);
    }
    if (descriptor.ref === null) {
      throw new EvidenceValueError('trace evidence descriptor requires ref or data');
    }
    return new ATIFTraceHandle({ kind: 'file', path: resolveRef(descriptor.ref) }, options);
  }

  /** A handle over a trajectory file, read lazily. */
  static fromFile(path: string, options: AtifViewOptions = {}): ATIFTraceHandle {
    return new ATIFTraceHandle({ kind: 'file', path: resolve(path) }, options);
  }

  /** A handle over an already validated trajectory (`file` locates `trajectory_path` refs). */
  static fromTrajectory(
    trajectory: AtifTrajectory,
    options: AtifViewOptions & { file?: string } = {},
  ): ATIFTraceHandle {
    return new ATIFTraceHandle({ kind: 'trajectory', trajectory, file: options.file ?? null }, options);
  }

  /** The file behind this handle, or null for inline data. */
  get file(): string | null {
    const s = this.#source;
    return s.kind === 'file' ? s.path : s.kind === 'trajectory' ? s.file : null;
  }

  /** The validated trajectory, read on first access (SDK `trace()`). */
  async trace(): Promise<AtifTrajectory> {
    if (this.#trajectory === null) {
      const s = this.#source;
      const payload = s.kind === 'file' ? await readJson(s.path) : s.kind === 'data' ? s.data : null;
      this.#trajectory ??= validate(payload, this.#sourceName());
    }
    return this.#trajectory;
  }

  /** Synchronous `trace()`, used by the `TrajectoryView` methods. */
  traceSync(): AtifTrajectory {
    if (this.#trajectory === null) {
      const s = this.#source;
      const payload = s.kind === 'file' ? readJsonSync(s.path) : s.kind === 'data' ? s.data : null;
      this.#trajectory = validate(payload, this.#sourceName());
    }
    return this.#trajectory;
  }

  /** `trajectory.steps` as is: every source, copied-context steps included (SDK `steps()`). */
  async steps(): Promise<AtifStep[]> {
    return (await this.trace()).steps;
  }

  /**
   * Every step's `tool_calls` concatenated in step order (SDK `tool_calls()`); options add embedded
   * subagent calls (after the step that delegated) or drop copied-context steps.
   */
  async toolCalls(options: AtifToolCallsOptions = {}): Promise<AtifToolCall[]> {
    const root = await this.trace();
    const out: AtifToolCall[] = [];
    this.#walk(root, options.includeSubagents === true, new Set(), (step) => {
      if (options.skipCopiedContext === true && step.is_copied_context === true) return;
      for (const call of step.tool_calls ?? []) out.push(call);
    });
    return out;
  }

  /**
   * SDK `token_usage()`: `final_metrics` as a whole when present (even if it only has `total_steps`),
   * else the sums of step `prompt_tokens`/`completion_tokens`, a sum of 0 reported as null.
   */
  async tokenUsage(): Promise<AtifFinalMetrics> {
    const t = await this.trace();
    if (t.final_metrics !== undefined && t.final_metrics !== null) return t.final_metrics;
    let prompt = 0;
    let completion = 0;
    for (const step of t.steps) {
      if (step.metrics === undefined || step.metrics === null) continue;
      prompt += step.metrics.prompt_tokens ?? 0;
      completion += step.metrics.completion_tokens ?? 0;
    }
    return {
      total_prompt_tokens: prompt === 0 ? null : prompt,
      total_completion_tokens: completion === 0 ? null : completion,
      total_cached_tokens: null,
      total_cost_usd: null,
      total_steps: null,
      extra: null,
    };
  }

  /** Embedded subagent trajectories, depth-first (children of children included). */
  async subagentTrajectories(): Promise<AtifTrajectory[]> {
    const out: AtifTrajectory[] = [];
    const visit = (t: AtifTrajectory): void => {
      for (const child of t.subagent_trajectories ?? []) {
        out.push(child);
        visit(child);
      }
    };
    visit(await this.trace());
    return out;
  }

  /** Root steps flagged `is_copied_context: true` (context carried over, not new work). */
  async copiedContextSteps(): Promise<AtifStep[]> {
    return (await this.steps()).filter((s) => s.is_copied_context === true);
  }

  /** Cross-field conformance problems of the document (RFC §6 rules beyond the schema). */
  async conformance(): Promise<AtifIssue[]> {
    return checkAtifConformance(await this.trace());
  }

  normalizedToolCalls(): NormalizedToolCall[] {
    const out: NormalizedToolCall[] = [];
    this.#walk(this.traceSync(), this.#options.includeSubagents === true, new Set(), (step) => {
      if (step.is_copied_context === true) return;
      const calls = step.tool_calls ?? [];
      if (calls.length === 0) return;
      const byId = new Map<string, { content: JsonValue; extra: Record<string, unknown> | null }[]>();
      for (const r of step.observation?.results ?? []) {
        if (typeof r.source_call_id !== 'string') continue;
        const list = byId.get(r.source_call_id) ?? [];
        list.push({ content: r.content ?? null, extra: r.extra ?? null });
        byId.set(r.source_call_id, list);
      }
      for (const call of calls) {
        const result = byId.get(call.tool_call_id)?.shift();
        out.push({
          id: call.tool_call_id,
          name: call.function_name,
          arguments: call.arguments,
          result: result?.content ?? null,
          isError: result !== undefined && isErrorExtra(result.extra),
          origin: { kind: 'atif-step', stepId: step.step_id },
        });
      }
    });
    return out;
  }

  normalizedTokenUsage(): NormalizedTokenUsage {
    const u = this.#usage(this.traceSync(), new Set());
    return { input: u.input, output: u.output, cached: u.cached, costUsd: u.cost, vocabulary: ['atif'] };
  }

  stepCount(): number {
    let n = 0;
    this.#walk(this.traceSync(), this.#options.includeSubagents === true, new Set(), (step) => {
      if (step.is_copied_context !== true) n += 1;
    });
    return n;
  }

  turnCount(): number {
    return this.traceSync().steps.filter((s) => s.source === 'user' && s.is_copied_context !== true).length;
  }

  finalText(): string | null {
    const steps = this.traceSync().steps;
    for (let i = steps.length - 1; i >= 0; i -= 1) {
      const step = steps[i];
      if (step?.source !== 'agent') continue;
      const text = atifMessageText(step.message);
      return text === null || text === '' ? null : text;
    }
    return null;
  }

  #sourceName(): string {
    return this.file ?? '<inline data>';
  }

  /** Visits steps in order; with subagents, a delegated child's steps follow the delegating step. */
  #walk(t: AtifTrajectory, deep: boolean, seen: Set<AtifTrajectory>, visit: (s: AtifStep) => void): void {
    seen.add(t);
    for (const step of t.steps) {
      visit(step);
      if (!deep) continue;
      for (const child of this.#childrenOf(t, step)) {
        if (!seen.has(child)) this.#walk(child, deep, seen, visit);
      }
    }
    if (!deep) return;
    for (const child of t.subagent_trajectories ?? []) {
      if (!seen.has(child)) this.#walk(child, deep, seen, visit);
    }
  }

  /** Subagent trajectories a step's observation refers to (embedded by id, or local files by path). */
  #childrenOf(t: AtifTrajectory, step: AtifStep): AtifTrajectory[] {
    const out: AtifTrajectory[] = [];
    for (const r of step.observation?.results ?? []) {
      for (const ref of r.subagent_trajectory_ref ?? []) {
        const embedded =
          typeof ref.trajectory_id === 'string'
            ? t.subagent_trajectories?.find((c) => c.trajectory_id === ref.trajectory_id)
            : undefined;
        if (embedded !== undefined) out.push(embedded);
        else if (typeof ref.trajectory_path === 'string') {
          const loaded = this.#loadRefFile(ref.trajectory_path);
          if (loaded !== null) out.push(loaded);
        }
      }
    }
    return out;
  }

  readonly #refFiles = new Map<string, AtifTrajectory | null>();

  #loadRefFile(refPath: string): AtifTrajectory | null {
    const file = this.file;
    if (file === null || /^[a-z][a-z0-9+.-]*:\/\//i.test(refPath)) return null;
    const path = isAbsolute(refPath) ? refPath : resolve(dirname(file), refPath);
    if (!this.#refFiles.has(path)) {
      let loaded: AtifTrajectory | null = null;
      try {
        const r = parseAtif(JSON.parse(readFileSync(path, 'utf8')));
        if (r.ok) loaded = r.trajectory;
      } catch {
        loaded = null;
      }
      this.#refFiles.set(path, loaded);
    }
    return this.#refFiles.get(path) ?? null;
  }

  #usage(
    t: AtifTrajectory,
    seen: Set<AtifTrajectory>,
  ): { input: number | null; output: number | null; cached: number | null; cost: number | null } {
    seen.add(t);
    const fm = t.final_metrics ?? null;
    const sums = {
      input: null as number | null,
      output: null as number | null,
      cached: null as number | null,
    };
    let cost: number | null = null;
    const add = (a: number | null, b: number | null | undefined): number | null =>
      typeof b === 'number' ? (a ?? 0) + b : a;
    // a token count below zero is left out (and reported by `atifInputDiagnostics`)
    const addCount = (a: number | null, b: number | null | undefined): number | null =>
      typeof b === 'number' && b >= 0 ? (a ?? 0) + b : a;
    for (const step of t.steps) {
      if (step.is_copied_context === true || step.metrics === undefined || step.metrics === null) continue;
      sums.input = addCount(sums.input, step.metrics.prompt_tokens);
      sums.output = addCount(sums.output, step.metrics.completion_tokens);
      sums.cached = addCount(sums.cached, step.metrics.cached_tokens);
      cost = add(cost, step.metrics.cost_usd);
    }
    if (this.#options.includeSubagents === true) {
      const children: AtifTrajectory[] = [];
      for (const step of t.steps) appendAll(children, this.#childrenOf(t, step));
      appendAll(children, t.subagent_trajectories ?? []);
      for (const child of children) {
        if (seen.has(child)) continue;
        const c = this.#usage(child, seen);
        sums.input = add(sums.input, c.input);
        sums.output = add(sums.output, c.output);
        sums.cached = add(sums.cached, c.cached);
        cost = add(cost, c.cost);
      }
    }
    const pick = (total: number | null | undefined, sum: number | null): number | null =>
      typeof total === 'number' ? total : sum;
    const pickCount = (total: number | null | undefined, sum: number | null): number | null =>
      typeof total === 'number' && total >= 0 ? total : sum;
    return {
      input: pickCount(fm?.total_prompt_tokens, sums.input),
      output: pickCount(fm?.total_completion_tokens, sums.output),
      cached: pickCount(fm?.total_cached_tokens, sums.cached),
      cost: pick(fm?.total_cost_usd, cost),
    };
  }
}

function isErrorExtra(extra: Record<string, unknown> | null): boolean {
  if (extra === null) return false;
  return extra['is_error'] === true || extra['isError'] === true;
}

function validate(payload: unknown, source: string): AtifTrajectory {
  const r = parseAtif(payload);
  if (!r.ok) throw new AtifParseError(source, r.issues);
  return r.trajectory;
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AtifParseError(path, [
      { code: 'invalid_json', path: [], message: (e as Error).message, severity: 'error' },
    ]);
  }
}

async function readJson(path: string): Promise<unknown> {
  return parseJson(await readFile(path, 'utf8'), path);
}

function readJsonSync(path: string): unknown {
  return parseJson(readFileSync(path, 'utf8'), path);
}

/**
 * Plain text of an ATIF `message` or observation `content`: a string as is; a content-part list as
 * its `text` parts joined by `\n` (media parts skipped); anything else (leniently read JSON) as null.
 *
 * @example
 * atifMessageText([{ type: 'text', text: 'a' }, { type: 'image', source: { media_type: 'image/png', path: 'i.png' } }]); // 'a'
 */
export function atifMessageText(message: JsonValue | undefined | unknown): string | null {
  if (typeof message === 'string') return message;
  if (!Array.isArray(message)) return null;
  const texts: string[] = [];
  for (const part of message as unknown[]) {
    if (part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string') texts.push(text);
    }
  }
  return texts.join('\n');
}
