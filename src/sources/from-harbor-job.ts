import { readdirSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import * as z from 'zod';
import { atifInputDiagnostics } from '../evidence/atif/atif-input-diagnostics.js';
import { ATIFTraceHandle } from '../evidence/atif/atif-trace-handle.js';
import type { AtifTrajectory } from '../evidence/atif/atif-trajectory-schema.js';
import { parseAtifBytes } from '../evidence/atif/parse-atif.js';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import { OTLPTraceHandle } from '../evidence/otlp/otlp-trace-handle.js';
import { readOtlpFileSync } from '../evidence/otlp/read-otlp-file-sync.js';
import type { JsonObject, JsonValue } from '../model/json-value.js';
import { measurementsFromUsage } from '../model/measurements-from-usage.js';
import type { TrialDiagnostic } from '../model/trial-diagnostic.js';
import type { TrialItem } from '../model/trial-item.js';
import type { EvidenceDescriptor, Trial, TrialError, TrialMeasurements } from '../model/trial.js';
import { PullSource } from '../pipeline/pull-source.js';
import { inOrderAhead } from '../util/in-order-ahead.js';
import { readInputFile } from '../util/read-input-file.js';
import { checkInsideRoot } from './check-inside-root.js';
import { InputError, skippedIssue } from './input-error.js';
import { sortByUtf8 } from '../util/sort-by-utf8.js';
import { isDirectoryPath, isFilePath } from '../util/path-kind.js';

/** Trial directories read ahead of the one being scored. */
const TRIALS_AHEAD = 8;

const count = z.number().nullish();
const agentContext = z.looseObject({
  n_input_tokens: count,
  n_cache_tokens: count,
  n_output_tokens: count,
  cost_usd: count,
});
const verifierResult = z.looseObject({ rewards: z.record(z.string(), z.json()).nullish() });
const exceptionInfo = z.looseObject({
  exception_type: z.string().nullish(),
  exception_message: z.string().nullish(),
  exception_traceback: z.string().nullish(),
  occurred_at: z.string().nullish(),
});
const stepResult = z.looseObject({
  agent_result: agentContext.nullish(),
  verifier_result: verifierResult.nullish(),
  exception_info: exceptionInfo.nullish(),
});
const trialResultSchema = z.looseObject({
  task_name: z.string().nullish(),
  trial_name: z.string().nullish(),
  task_id: z.looseObject({ path: z.string().nullish() }).nullish(),
  source: z.string().nullish(),
  task_checksum: z.string().nullish(),
  agent_info: z.json().nullish(),
  agent_result: agentContext.nullish(),
  verifier_result: verifierResult.nullish(),
  exception_info: exceptionInfo.nullish(),
  step_results: z.array(stepResult).nullish(),
  started_at: z.string().nullish(),
  finished_at: z.string().nullish(),
});
type TrialResult = z.infer<typeof trialResultSchema>;
type AgentContext = z.infer<typeof agentContext>;

/** Options of `fromHarborJob`. */
export interface FromHarborJobOptions {
  /** Called after each trial directory is read. */
  onProgress?: (progress: { file: string; trials: number }) => void;
  /**
   * Receives each `result.json` that is not valid JSON or not a Harbor trial result, as an
   * `InputError` naming the file and field: that trial is skipped and reading goes on. Without it
   * such a file ends the stream after the trials before it. A link out of the job directory ends it
   * either way.
   */
  onIssue?: (issue: InputError) => void;
}

/**
 * Trials of a Harbor job directory, one per trial directory holding a `result.json` (read lazily, in
 * name order; a directory that is itself a trial works too). From `result.json`: task id `task_name`,
 * trial id `trial_name`, `verifier_result.rewards` into `trial.metadata.verifier_result` (read by
 * `verifier_reward`), `exception_info` as the trial error (status `partial`, still scored),
 * `agent_result` (summed over `step_results` for multi-step tasks) as measurements. Evidence: ATIF
 * from `agent/trajectory.json` (when it validates) or `traces/*.atif.json` under `trace:atif`, OTLP
 * from `traces/*.jsonl` under `trace:otlp`; the primary `trace` is OTLP when present, else ATIF;
 * `logs` = `agent/`, `verifier_logs` = `verifier/`. An unreadable `result.json` errors the stream
 * with an `InputError` after the trials before it (with `onIssue`: reported there, that trial
 * skipped). Symbolic links (trial directories, evidence files and the directories on their way) are
 * followed while they stay inside the job directory; one that leads outside it is refused with an
 * `InputError` naming the link and its target (never followed, never skipped).
 *
 * @example
 * fromHarborJob('jobs/2026-01-05__12-00-00').subscribe((item) => console.log(item.trial.task_id, item.trial.metadata));
 */
export function fromHarborJob(dir: string, options: FromHarborJobOptions = {}): PullSource<TrialItem> {
  return new PullSource(() => readHarborJob(resolve(dir), options));
}

async function* readHarborJob(dir: string, options: FromHarborJobOptions): AsyncGenerator<TrialItem> {
  const root = await realpath(dir).catch(() => dir);
  // a problem the stream may go on past (`onIssue`), returned to be reported in name order
  const skippable = (error: unknown): InputError => {
    if (options.onIssue === undefined || !(error instanceof InputError) || error.diagnostic === null)
      throw error;
    return error;
  };
  const own = await readResult(root, join(dir, 'result.json')).catch(skippable);
  if (own instanceof InputError) options.onIssue?.(skippedIssue(own));
  else if (own !== null && isTrialResult(own.raw)) {
    yield await buildItem(root, dir, own.path, own.raw);
    options.onProgress?.({ file: own.path, trials: 1 });
    return;
  }
  const names = await listHarborEntries(dir);
  const readTrial = async (name: string): Promise<{ item: TrialItem; path: string } | InputError | null> => {
    const trialDir = join(dir, name);
    if (!isDirectoryPath(trialDir)) return null; // a link to a file
    await checkInsideRoot(root, trialDir);
    try {
      const result = await readResult(root, join(trialDir, 'result.json'));
      if (result === null) return null; // not a trial directory, or a trial still running
      return { item: await buildItem(root, trialDir, result.path, result.raw), path: result.path };
    } catch (error) {
      return skippable(error);
    }
  };
  let n = 0;
  // a few trials are read ahead; their large files (see readInputFile) while earlier trials are scored
  for await (const read of inOrderAhead(names, TRIALS_AHEAD, readTrial)) {
    if (read === null) continue;
    if (read instanceof InputError) {
      options.onIssue?.(skippedIssue(read));
      continue;
    }
    yield read.item;
    n += 1;
    options.onProgress?.({ file: read.path, trials: n });
  }
}

function isTrialResult(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && 'trial_name' in raw;
}

async function readResult(root: string, path: string): Promise<{ path: string; raw: unknown } | null> {
  await checkInsideRoot(root, path);
  let text: string;
  try {
    text = (await readInputFile(path)).toString('utf8');
  } catch {
    return null;
  }
  try {
    return { path, raw: JSON.parse(text) as unknown };
  } catch (error) {
    throw new InputError(`not valid JSON: ${(error as Error).message}`, {
      file: path,
      diagnostic: 'skipped_file',
    });
  }
}

async function buildItem(
  root: string,
  trialDir: string,
  resultPath: string,
  raw: unknown,
): Promise<TrialItem> {
  const parsed = trialResultSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? null;
    throw new InputError(`not a Harbor trial result: ${issue?.message ?? 'invalid'}`, {
      file: resultPath,
      field,
      diagnostic: 'skipped_file',
    });
  }
  const r = parsed.data;
  const dirName = basename(trialDir);
  const trialId = r.trial_name ?? dirName;
  const taskId =
    r.task_name ??
    (typeof r.task_id?.path === 'string' ? basename(r.task_id.path) : (dirName.split('__')[0] ?? dirName));

  const { found: atif, skipped } = await findAtif(root, trialDir);
  const otlpFiles = await listFiles(root, join(trialDir, 'traces'), (n) => n.endsWith('.jsonl'));
  const descriptors: Record<string, EvidenceDescriptor> = {};
  const describe = (
    kind: string,
    format: string | null,
    ref: string,
    metadata: JsonObject = {},
  ): EvidenceDescriptor => ({
    kind,
    format,
    ref,
    data: null,
    description: null,
    metadata,
  });
  const otlpDescriptor =
    otlpFiles.length === 0
      ? null
      : describe('trace', 'otlp', otlpFiles[0] as string, otlpFiles.length > 1 ? { files: otlpFiles } : {});
  const atifDescriptor = atif === null ? null : describe('trace', 'atif', atif.path);
  if (otlpDescriptor !== null) descriptors['trace'] = otlpDescriptor;
  else if (atifDescriptor !== null) descriptors['trace'] = atifDescriptor;
  if (atifDescriptor !== null) descriptors['trace:atif'] = atifDescriptor;
  if (otlpDescriptor !== null) descriptors['trace:otlp'] = otlpDescriptor;
  for (const [name, sub] of [
    ['logs', 'agent'],
    ['verifier_logs', 'verifier'],
  ] as const) {
    const p = join(trialDir, sub);
    if (!isDirectoryPath(p)) continue;
    await checkInsideRoot(root, p);
    descriptors[name] = describe('logs', null, p);
  }
  const otlpLoader = (d: EvidenceDescriptor, ctx: { resolveRef(ref: string): string }): OTLPTraceHandle => {
    const files = d.metadata['files'];
    if (Array.isArray(files)) {
      return OTLPTraceHandle.fromRequests(files.flatMap((f) => readOtlpFileSync(String(f))));
    }
    return OTLPTraceHandle.fromDescriptor(d, ctx.resolveRef);
  };
  const evidence =
    Object.keys(descriptors).length === 0
      ? null
      : new CandidateEvidence(
          { descriptors, metadata: { source: 'harbor' } },
          {
            baseDir: trialDir,
            traceLoaders: { otlp: otlpLoader },
          },
        );
  if (evidence !== null && atif !== null && atifDescriptor !== null) {
    const handle = ATIFTraceHandle.fromTrajectory(atif.trajectory, { file: atif.path });
    evidence.attach('trace:atif', atifDescriptor, handle);
    if (otlpDescriptor === null) evidence.attach('trace', atifDescriptor, handle);
  }

  let outputText: string | null = null;
  if (atif !== null) outputText = ATIFTraceHandle.fromTrajectory(atif.trajectory).finalText();
  else if (evidence !== null && otlpDescriptor !== null) {
    try {
      outputText = (await evidence.trace('trace', 'otlp')).finalText();
    } catch (error) {
      throw new InputError(`cannot read OTLP trace: ${(error as Error).message}`, {
        file: otlpDescriptor.ref ?? trialDir,
      });
    }
  }

  const error = trialError(r);
  const trial: Trial = {
    id: trialId,
    task_id: taskId,
    status: error === null ? 'completed' : 'partial',
    output: { output_text: outputText, response: null, metadata: {} },
    evidence: evidence === null ? null : evidence.toRecord(),
    error,
    measurements: measurements(r),
    metadata: trialMetadata(r),
  };
  const diagnostics = [...skipped, ...negativeCounts(r, resultPath)];
  if (atif !== null) diagnostics.push(...atifInputDiagnostics(atif.path, atif.bytes, atif.trajectory));
  const item: TrialItem = { trial, evidence, task: null, origin: { file: resultPath } };
  if (diagnostics.length > 0) item.diagnostics = diagnostics;
  return item;
}

async function findAtif(
  root: string,
  trialDir: string,
): Promise<{
  found: { path: string; trajectory: AtifTrajectory; bytes: Buffer } | null;
  skipped: TrialDiagnostic[];
}> {
  const candidates = [
    join(trialDir, 'agent', 'trajectory.json'),
    ...(await listFiles(root, join(trialDir, 'traces'), (n) => n.endsWith('.atif.json'))),
  ];
  // a trajectory that is there but does not read is not trusted as ATIF (SDK read_atif): said, not hidden
  const skipped: TrialDiagnostic[] = [];
  const skip = (path: string, reason: string, field: string): void => {
    skipped.push({
      code: 'skipped_file',
      message: `${reason}; not read as the trial's ATIF trajectory`,
      file: path,
      line: null,
      offset: null,
      field,
    });
  };
  for (const path of candidates) {
    await checkInsideRoot(root, path);
    let bytes: Buffer;
    try {
      bytes = await readInputFile(path);
    } catch {
      continue; // absent
    }
    const r = parseAtifBytes(bytes);
    if (r.ok) return { found: { path, trajectory: r.trajectory, bytes }, skipped };
    skip(path, r.reason, r.field);
  }
  return { found: null, skipped };
}

/** Files (or links to files) in `dir` whose name `keep`s, sorted; a link outside `root` is refused. */
async function listFiles(root: string, dir: string, keep: (name: string) => boolean): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    if (!keep(e.name) || !(e.isFile() || e.isSymbolicLink())) continue;
    const path = join(dir, e.name);
    await checkInsideRoot(root, path);
    if (e.isFile() || isFilePath(path)) files.push(path);
  }
  return sortByUtf8(files, (f) => f);
}

function trialError(r: TrialResult): TrialError | null {
  const e =
    r.exception_info ?? [...(r.step_results ?? [])].reverse().find((s) => s.exception_info)?.exception_info;
  if (e === null || e === undefined) return null;
  const type = (e.exception_type ?? '').trim();
  return {
    type: type === '' ? 'UnknownException' : type,
    message: e.exception_message ?? null,
    traceback: e.exception_traceback ?? null,
    occurred_at: e.occurred_at ?? null,
  };
}

const TOKEN_COUNTS = ['n_input_tokens', 'n_output_tokens', 'n_cache_tokens'] as const;

/** Token counts sum what was measured; a count below zero is left out (see `negativeCounts`). */
function sumMeasured(contexts: AgentContext[], key: keyof AgentContext & string): number | null {
  const isCount = (TOKEN_COUNTS as readonly string[]).includes(key);
  let total: number | null = null;
  for (const c of contexts) {
    const v = c[key];
    if (typeof v === 'number' && Number.isFinite(v) && !(isCount && v < 0)) total = (total ?? 0) + v;
  }
  return total;
}

/** A `negative_token_count` diagnostic per token count below zero in `result.json`. */
function negativeCounts(r: TrialResult, file: string): TrialDiagnostic[] {
  const out: TrialDiagnostic[] = [];
  const check = (c: AgentContext | null | undefined, at: string): void => {
    if (c === null || c === undefined) return;
    for (const key of TOKEN_COUNTS) {
      const v = c[key];
      if (typeof v === 'number' && v < 0)
        out.push({
          code: 'negative_token_count',
          message: `${key} is ${v}: left out of the token totals`,
          file,
          line: null,
          offset: null,
          field: `${at}.${key}`,
        });
    }
  };
  check(r.agent_result, 'agent_result');
  (r.step_results ?? []).forEach((s, i) => check(s.agent_result, `step_results[${i}].agent_result`));
  return out;
}

function measurements(r: TrialResult): TrialMeasurements {
  const steps = (r.step_results ?? []).flatMap((s) => (s.agent_result ? [s.agent_result] : []));
  const contexts = steps.length > 0 ? steps : r.agent_result ? [r.agent_result] : [];
  return measurementsFromUsage({
    input: sumMeasured(contexts, 'n_input_tokens'),
    output: sumMeasured(contexts, 'n_output_tokens'),
    cached: sumMeasured(contexts, 'n_cache_tokens'),
    runtimeSec: secondsBetween(r.started_at, r.finished_at),
    costUsd: sumMeasured(contexts, 'cost_usd'),
  });
}

/** Seconds between two ISO timestamps; Harbor writes them without an offset, read both as UTC. */
function secondsBetween(start: string | null | undefined, end: string | null | undefined): number | null {
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  const parse = (s: string): number => Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s}Z`);
  const ms = parse(end) - parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : null;
}

function trialMetadata(r: TrialResult): JsonObject {
  const meta: JsonObject = {};
  const verifier =
    r.verifier_result ??
    [...(r.step_results ?? [])].reverse().find((s) => s.verifier_result)?.verifier_result;
  if (verifier?.rewards !== undefined && verifier.rewards !== null) {
    meta['verifier_result'] = { rewards: verifier.rewards as JsonObject };
  }
  const copy: [string, JsonValue | null | undefined][] = [
    ['source', r.source],
    ['task_checksum', r.task_checksum],
    ['agent_info', r.agent_info as JsonValue | undefined],
    ['started_at', r.started_at],
    ['finished_at', r.finished_at],
  ];
  for (const [k, v] of copy) if (v !== undefined && v !== null) meta[k] = v;
  return meta;
}

/**
 * The entries of a Harbor job directory that may be trial directories (directories and symbolic
 * links), in name order (byte order of the names): the order `fromHarborJob` reads them in.
 *
 * @example
 * await listHarborEntries('jobs/2026-01-05'); // ['hello-world__a1', 'hello-world__b2']
 */
export async function listHarborEntries(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read Harbor job directory: ${(error as Error).message}`, { file: dir });
  }
  const names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  return sortByUtf8(names, (name) => name);
}
