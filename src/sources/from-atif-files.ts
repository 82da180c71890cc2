import { basename, resolve } from 'node:path';
import { ATIFTraceHandle } from '../evidence/atif/atif-trace-handle.js';
import type { AtifTrajectory } from '../evidence/atif/atif-trajectory-schema.js';
import { atifInputDiagnostics } from '../evidence/atif/atif-input-diagnostics.js';
import { parseAtifBytes } from '../evidence/atif/parse-atif.js';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import type { JsonObject } from '../model/json-value.js';
import type { EvidenceDescriptor, Trial, TrialError } from '../model/trial.js';
import type { TrialItem } from '../model/trial-item.js';
import { InputError, skippedIssue } from './input-error.js';
import { measurementsFromUsage } from '../model/measurements-from-usage.js';
import { PullSource } from '../pipeline/pull-source.js';
import { inOrderAhead } from '../util/in-order-ahead.js';
import { readInputFile } from '../util/read-input-file.js';

/** Files read ahead of the one being scored (each is held in memory until its turn). */
const FILES_AHEAD = 8;

/** Options of `fromAtifFiles`. */
export interface FromAtifFilesOptions {
  /** The task id of a trajectory; default: root `extra.task_id`, else `extra.task_name`, else the trial id. */
  taskId?: (trajectory: AtifTrajectory, file: string) => string | null;
  /** Include embedded subagent trajectories in the trace's normalised view (see `ATIFTraceHandle`). */
  includeSubagents?: boolean;
  /** Called after each file is read. */
  onProgress?: (progress: { file: string; trials: number }) => void;
  /**
   * Receives each file that is not valid JSON or not a valid ATIF trajectory, as an `InputError`
   * naming the file and field: the file is skipped and reading goes on. Without it such a file ends
   * the stream after the trials before it.
   */
  onIssue?: (issue: InputError) => void;
}

/**
 * One trial per ATIF trajectory file, read lazily in the given order. Trial id: `trajectory_id`, else
 * the file name without `.atif.json`/`.json` (a repeated id gets `-2`, `-3`, ...). Status `completed`,
 * or `partial` with the error when the root `extra.error` = `{type, message}` (NeMo's convention);
 * output text = the last agent step's message; measurements from the token totals (each
 * `final_metrics` field, else the per-step sums; counts below zero left out); diagnostics for bytes
 * that are not UTF-8 and for negative token counts (`atifInputDiagnostics`); evidence = the trajectory under `trace` (format
 * `atif`, absolute ref) with the parsed handle attached. A file that is not valid ATIF errors the
 * stream with an `InputError` (file and field) after the trials before it; with `onIssue`, it is
 * reported there and skipped.
 *
 * @example
 * fromAtifFiles(['runs/a.atif.json', 'runs/b.atif.json']).subscribe((i) => console.log(i.trial.id, i.trial.output?.output_text));
 */
export function fromAtifFiles(
  paths: readonly string[],
  options: FromAtifFilesOptions = {},
): PullSource<TrialItem> {
  return new PullSource(() => readAtifFiles(paths, options));
}

async function* readAtifFiles(
  paths: readonly string[],
  options: FromAtifFilesOptions,
): AsyncGenerator<TrialItem> {
  const seen = new Map<string, number>();
  let n = 0;
  const read = async (p: string): Promise<{ file: string; bytes: Buffer }> => {
    const file = resolve(p);
    try {
      return { file, bytes: await readInputFile(file) };
    } catch (error) {
      throw new InputError(`cannot read: ${(error as Error).message}`, { file });
    }
  };
  // files are read ahead; a large one (see readInputFile) while the ones before it are parsed and scored
  for await (const { file, bytes } of inOrderAhead(paths, FILES_AHEAD, read)) {
    const parsed = parseAtifFile(file, bytes);
    if (parsed instanceof InputError) {
      if (options.onIssue === undefined) throw parsed;
      options.onIssue(skippedIssue(parsed));
      continue;
    }
    const t = parsed;
    const base = typeof t.trajectory_id === 'string' && t.trajectory_id !== '' ? t.trajectory_id : stem(file);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const trialId = count === 1 ? base : `${base}-${count}`;
    const item = buildAtifItem(t, file, trialId, options);
    const diagnostics = atifInputDiagnostics(file, bytes, t);
    if (diagnostics.length > 0) item.diagnostics = diagnostics;
    yield item;
    n += 1;
    options.onProgress?.({ file, trials: n });
  }
}

/** The trajectory in `bytes`, or the problem (not JSON, not ATIF) as an `InputError` to skip or throw. */
function parseAtifFile(file: string, bytes: Buffer): AtifTrajectory | InputError {
  const r = parseAtifBytes(bytes);
  if (r.ok) return r.trajectory;
  return new InputError(r.reason, {
    file,
    field: r.field === '' ? null : r.field,
    diagnostic: 'skipped_file',
  });
}

function stem(file: string): string {
  const name = basename(file);
  if (name.endsWith('.atif.json')) return name.slice(0, -'.atif.json'.length);
  if (name.endsWith('.json')) return name.slice(0, -'.json'.length);
  return name;
}

function extraString(t: AtifTrajectory, key: string): string | null {
  const v = t.extra?.[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

function rootError(t: AtifTrajectory): TrialError | null {
  const e = t.extra?.['error'];
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return null;
  const o = e as Record<string, unknown>;
  const type = typeof o['type'] === 'string' && o['type'].trim() !== '' ? o['type'] : 'UnknownException';
  return {
    type,
    message: typeof o['message'] === 'string' ? o['message'] : null,
    traceback: typeof o['traceback'] === 'string' ? o['traceback'] : null,
    occurred_at: typeof o['occurred_at'] === 'string' ? o['occurred_at'] : null,
  };
}

function buildAtifItem(
  t: AtifTrajectory,
  file: string,
  trialId: string,
  options: FromAtifFilesOptions,
): TrialItem {
  const handle = ATIFTraceHandle.fromTrajectory(t, {
    file,
    ...(options.includeSubagents === undefined ? {} : { includeSubagents: options.includeSubagents }),
  });
  const descriptor: EvidenceDescriptor = {
    kind: 'trace',
    format: 'atif',
    ref: file,
    data: null,
    description: null,
    metadata: {},
  };
  const evidence = new CandidateEvidence({
    descriptors: { trace: descriptor },
    metadata: { source: 'atif' },
  });
  evidence.attach('trace', descriptor, handle);
  const usage = handle.normalizedTokenUsage();
  const error = rootError(t);
  const metadata: JsonObject = { schema_version: t.schema_version, agent_name: t.agent.name };
  if (typeof t.agent.model_name === 'string') metadata['model_name'] = t.agent.model_name;
  if (typeof t.session_id === 'string') metadata['session_id'] = t.session_id;
  const taskId =
    options.taskId?.(t, file) ?? extraString(t, 'task_id') ?? extraString(t, 'task_name') ?? trialId;
  const trial: Trial = {
    id: trialId,
    task_id: taskId,
    status: error === null ? 'completed' : 'partial',
    output: { output_text: handle.finalText(), response: null, metadata: {} },
    evidence: evidence.toRecord(),
    error,
    measurements: measurementsFromUsage(usage),
    metadata,
  };
  return { trial, evidence, task: null, origin: { file } };
}
