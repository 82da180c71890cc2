import { dirname } from 'node:path';
import type { JsonObject, JsonValue } from '../../model/json-value.js';
import { measurementsFromUsage } from '../../model/measurements-from-usage.js';
import type { AgentOutput, EvidenceDescriptor, Trial, TrialError } from '../../model/trial.js';
import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { CandidateEvidence } from '../candidate-evidence.js';
import type { OTLPTraceHandle } from './otlp-trace-handle.js';
import type { OtlpSpan } from './otlp-types.js';
import type { SpanNode } from './span-forest.js';

/** What `buildOtlpTrialItem` needs to know about one grouped trial. */
export interface OtlpTrialParts {
  trialId: string;
  taskId: string;
  handle: OTLPTraceHandle;
  origin: ItemOrigin;
  /** Extra `trial.metadata` entries (grouping details). */
  metadata?: JsonObject;
  /** What the decoder went on past in the trial's spans (`TrialItem.diagnostics`). */
  diagnostics?: TrialDiagnostic[];
}

function isoFromNanos(nanos: bigint): string | null {
  if (nanos <= 0n) return null;
  const ms = Number(nanos / 1_000_000n);
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0');
  return `${d.toISOString().slice(0, 19)}.${frac}Z`;
}

/** The error of a failed root invocation: its `exception` event, else `error.type` and the status. */
function rootError(span: OtlpSpan): TrialError {
  const exception = span.events.find((e) => e.name === 'exception');
  const a = exception?.attributes;
  const type = a?.getString('exception.type') ?? span.attributes.getString('error.type') ?? '';
  return {
    type: type === '' ? 'UnknownException' : type,
    message: a?.getString('exception.message') ?? (span.status.message === '' ? null : span.status.message),
    traceback: a?.getString('exception.stacktrace') ?? null,
    occurred_at: exception === undefined ? null : isoFromNanos(exception.timeUnixNano),
  };
}

/**
 * Turns one grouped OTLP trial into a pipeline `TrialItem`: the SDK-shaped trial (id, task id, final
 * text as `output.output_text`, token/cost/runtime measurements from the trace) and its evidence, a
 * `CandidateEvidence` with the in-memory handle attached under `trace` (format `otlp`; `ref` is the
 * source file, `metadata.otlp_trace_ids` the traces of this trial in it), and its diagnostics (the
 * decoder's, plus each negative token count, which the totals leave out). A root invocation (a root
 * span that is or contains an agent, workflow or model span) with status ERROR makes the trial
 * `partial` (scored, like Harbor's errored trials) with that error; otherwise `completed`.
 *
 * @example
 * const item = buildOtlpTrialItem({ trialId: 'conv-1', taskId: 'conv-1', handle, origin: { file } });
 */
export function buildOtlpTrialItem(parts: OtlpTrialParts): TrialItem {
  const { handle, origin } = parts;
  const forest = handle.forest();
  const usage = handle.tokenUsage();
  let minStart: bigint | null = null;
  let maxEnd: bigint | null = null;
  for (const n of forest.nodes) {
    const s = n.span.startTimeUnixNano;
    const e = n.span.endTimeUnixNano;
    if (s > 0n && (minStart === null || s < minStart)) minStart = s;
    if (e > 0n && (maxEnd === null || e > maxEnd)) maxEnd = e;
  }
  let failedRoot: SpanNode | undefined;
  for (const r of forest.roots) {
    if (r.span.status.code !== 2) continue;
    if (handle.roleOf(r) !== 'other' || forest.hasDescendant(r, (n) => handle.roleOf(n) !== 'other')) {
      failedRoot = r;
      break;
    }
  }
  const measurements = measurementsFromUsage({
    input: usage.input,
    output: usage.output,
    cached: usage.cached,
    cacheCreation: usage.cacheCreation,
    costUsd: usage.costUsd,
    runtimeSec:
      minStart !== null && maxEnd !== null && maxEnd >= minStart ? Number(maxEnd - minStart) / 1e9 : null,
  });
  const traceIds = handle.traceIds();
  const descriptor: EvidenceDescriptor = {
    kind: 'trace',
    format: 'otlp',
    ref: origin.file,
    data: null,
    description: DESCRIPTION,
    metadata: { otlp_trace_ids: traceIds },
  };
  const evidence = new CandidateEvidence(
    { descriptors: {}, metadata: {} },
    { baseDir: dirOf(origin.file) },
  ).attach('trace', descriptor, handle);
  const extra = parts.metadata;
  const metadata: JsonObject = {
    source_format: 'otlp',
    source_file: origin.file,
    otlp_trace_ids: traceIds,
    otlp_span_count: forest.nodes.length,
  };
  if (forest.duplicates > 0) metadata['otlp_duplicate_spans'] = forest.duplicates;
  if (forest.cyclesBroken > 0) metadata['otlp_parent_cycles_broken'] = forest.cyclesBroken;
  if (extra !== undefined) for (const k of Object.keys(extra)) metadata[k] = extra[k] as JsonValue;
  const trial: Trial = {
    id: parts.trialId,
    task_id: parts.taskId,
    status: failedRoot === undefined ? 'completed' : 'partial',
    // the final text is found (and message JSON parsed) when first read, not for every trial
    output: lazyTextOutput(handle),
    // what evidence.toRecord() gives, built directly (structuredClone is costly per trial)
    evidence: {
      descriptors: { trace: { ...descriptor, metadata: { otlp_trace_ids: [...traceIds] } } },
      metadata: {},
    },
    error: failedRoot === undefined ? null : rootError(failedRoot.span),
    measurements,
    metadata,
  };
  const item: TrialItem = { trial, evidence, task: null, origin };
  const diagnostics = parts.diagnostics ?? [];
  for (const n of usage.negative)
    diagnostics.push({
      code: 'negative_token_count',
      message: `span ${n.spanId}: ${n.key} is ${n.value}: left out of the token totals`,
      file: origin.file,
      line: null,
      offset: null,
      field: `attribute '${n.key}'`,
    });
  if (diagnostics.length > 0) item.diagnostics = diagnostics;
  return item;
}

/**
 * A trial output `{ output_text, response: null, metadata: {} }` whose `output_text` is the handle's
 * final text, found (and message JSON parsed) when first read; the first read or an assignment lets
 * the handle, and with it the trial's spans, go.
 */
function lazyTextOutput(handle: OTLPTraceHandle): AgentOutput {
  let source: OTLPTraceHandle | null = handle;
  let text: string | null = null;
  return {
    get output_text(): string | null {
      if (source !== null) {
        text = source.finalText();
        source = null;
      }
      return text;
    },
    set output_text(value: string | null) {
      text = value;
      source = null;
    },
    response: null,
    metadata: {},
  };
}

const DESCRIPTION = 'OTLP spans of this trial (the traces listed in metadata.otlp_trace_ids)';

let lastFile: string | null = null;
let lastDir = '';

/** `dirname(file)`, remembered for the last file (every trial of a file asks the same). */
function dirOf(file: string): string {
  if (file !== lastFile) {
    lastDir = dirname(file);
    lastFile = file;
  }
  return lastDir;
}
