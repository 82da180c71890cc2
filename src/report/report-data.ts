import type { JsonValue } from '../model/json-value.js';
import type { OutputKind } from '../model/output-spec.js';
import type { CoverageCounts } from '../model/summary.js';

/**
 * The JSON embedded in `report.html` (`<script type="application/json">`), read by the page's script.
 * Strict JSON: non-finite numbers are boxed as `{"$nf": "NaN" | "Infinity" | "-Infinity"}`.
 * Per-trial data is columnar (one array per field, index = trial row) so 100k trials stay compact;
 * the heavy per-trial details live in separate chunks parsed only when a trial is opened.
 *
 * @example
 * const data: ReportData = buildReportModel(input).data;
 * data.trials.id.length; // number of trial rows
 */
export interface ReportData {
  version: 1;
  run: ReportRun;
  counts: ReportCounts;
  aggregates: ReportAggregate[];
  outputs: ReportOutput[];
  /** Metric types, in sorted order; `scoreStatus[i]` belongs to `metricTypes[i]`. */
  metricTypes: string[];
  /**
   * Task ids, trial-row counts, and which declared-output set each task has: an index into
   * `declSets`, or -1 when the run has no task specs (every output of a scored metric applies).
   */
  tasks: { id: string[]; trialCount: number[]; decl: number[] };
  /** Distinct sets of declared outputs (indexes into `outputs`). */
  declSets: number[][];
  /** Names of `ReportTrialDetail.measurements`, in order. */
  measurementKeys: string[];
  trials: ReportTrialColumns;
  /** Per metric type: one char per trial row: `-` no score, `c` completed, `p` partial, `f` failed. */
  scoreStatus: string[];
  /**
   * Per output (same order as `outputs`), per trial row: the value of the first output of that name in
   * the trial's first score of that metric type. `null` = absent; numbers/booleans/strings as emitted
   * (strings cut to 200 chars); `{"$o": "null" | "object" | "list"}` for other present values.
   */
  values: JsonValue[][];
  /**
   * Trial details are embedded for the kept rows only (`rows`, ascending), `chunkSize` per
   * `es-d-<n>` block; the page shows any other trial from the columns.
   */
  detail: { chunkSize: number; chunks: number; rows: number[] };
  /** Which trials keep their detail and trajectory, and how to get the others. */
  selection: ReportSelection;
  /** Things the reader should know about the embed (e.g. trajectories left out). */
  notes: string[];
}

/** The bounded selection of trials whose detail and trajectory the report embeds. */
export interface ReportSelection {
  /** Trials whose trajectory is embedded. */
  trajectoriesKept: number;
  /** Trials that have a trace. */
  trajectoriesTotal: number;
  /** The rule that chose them, in words. */
  rule: string;
  /** How to get the trials left out (`evalstream inspect`, `evalstream query`). */
  howToGetTheRest: string;
}

export interface ReportRun {
  id: string;
  target: { name: string | null; kind: string | null; version: string | null } | null;
  labels: [string, string][];
  startedAt: string | null;
  finishedAt: string | null;
  durationSec: number | null;
  sdkVersion: string | null;
}

export interface ReportCounts {
  tasks: number;
  trials: number;
  scores: number;
  errors: number;
  errorsByType: [string, number][];
  trialStatus: { completed: number; partial: number; failed: number };
  scoreStatus: { completed: number; partial: number; failed: number };
  /** Input diagnostics of all trials (`diagnostics.jsonl`), and how many per code, most first. */
  diagnostics: number;
  diagnosticsByCode: [string, number][];
}

export type ReportAggregateKind = 'output' | 'view' | 'pass@k' | 'scalar' | 'other';

/** A 95% interval and the words that say how it was computed. */
export interface ReportInterval {
  lo: number;
  hi: number;
  method: string;
}

export interface ReportAggregate {
  name: string;
  kind: ReportAggregateKind;
  /** `<type>.<output>` for output and pass@k rows, else null. */
  key: string | null;
  k: number | null;
  mean: number | null;
  count: number | null;
  nanCount: number | null;
  min: number | null;
  max: number | null;
  stdDev: number | null;
  /** `value` of runner-contributed scalar rows. */
  value: number | null;
  /** Output rows: `metric_coverage`; view and pass@k rows: null (their bar is count vs nan_count). */
  coverage: CoverageCounts | null;
  ci: ReportInterval | null;
}

export interface ReportOutput {
  key: string;
  metric: string;
  output: string;
  kind: OutputKind | 'unknown';
  /** Continuous or boolean: has pass@k rows. */
  scoreLike: boolean;
  coverage: CoverageCounts | null;
  histogram: ReportHistogram | null;
  /** Label and boolean outputs: value → count, most frequent first (top 12 + "(other)"). */
  valueCounts: [string, number][] | null;
  /** Tasks with at least one numeric value, ascending by mean: task row index and its mean. */
  taskMeans: { task: number[]; mean: number[] };
  passAtK: { k: number; mean: number | null; count: number; nanCount: number }[];
}

/** Bins `[edges[i], edges[i+1])` (last bin closed); `discrete` bins are centred on integers. */
export interface ReportHistogram {
  edges: number[];
  counts: number[];
  discrete: boolean;
}

export interface ReportTrialColumns {
  /**
   * Task row index of each trial row, run-length encoded as `[task, count, task, count, …]` (trials
   * of one task are usually adjacent).
   */
  taskRuns: number[];
  id: string[];
  /** One char per trial row: `c` completed, `p` partial, `f` failed, `?` no trial record (scores only). */
  status: string;
  /** Trial rows that have an error, ascending, and the index into `errorTypes` of each. */
  errorRows: number[];
  errorOfRow: number[];
  errorTypes: string[];
  /**
   * Trial rows that have input diagnostics, ascending; per such row how many, and its kind and place
   * of the first two (`invalid_utf8 at a.json:17 (byte 402): steps[1].message; +3 more`).
   */
  diagnosticRows: number[];
  diagnosticCount: number[];
  diagnosticText: string[];
}

/** One trial's details, in a lazily parsed chunk. Empty or null fields are left out to keep 100k trials small. */
export interface ReportTrialDetail {
  output?: { text?: string; response?: JsonValue; metadata?: JsonValue };
  error?: { type: string; message: string | null; traceback: string | null; occurredAt: string | null };
  /** Aligned with `ReportData.measurementKeys`; left out when nothing was measured. */
  measurements?: (number | null)[];
  metadata?: JsonValue;
  /**
   * The trial's scores in order. A number `t` stands for the first score of `metricTypes[t]` when it
   * is fully given by the columns (`scoreStatus`, `values`: no diagnostics, no extra metadata, only
   * declared outputs with scalar values); the page rebuilds it from there.
   */
  scores: (ReportScoreDetail | number)[];
  /**
   * The trial's input diagnostics (at most 20): code, place (file, line, byte offset, field) and
   * message; `diagnosticsLeftOut` counts the others.
   */
  diagnostics?: [string, string, string][];
  diagnosticsLeftOut?: number;
  /** Evidence descriptors: name, kind, format, ref. */
  evidence?: [string, string, string | null, string | null][];
  trajectory?: CompactTrajectory;
  /** Why there is no trajectory (not embedded, unreadable, unsupported format). */
  trajectoryNote?: string;
}

export interface ReportScoreDetail {
  type: string;
  status: string;
  outputs: [string, JsonValue][];
  diagnostics?: { severity: string; message: string; source: string | null; details?: JsonValue }[];
  /** Score metadata without `trial_metadata` (a copy of the trial's metadata). */
  metadata?: JsonValue;
}

/** A task's spec, in the lazily parsed task block. */
export interface ReportTaskDetail {
  intent?: string;
  inputs?: JsonValue;
  reference?: JsonValue;
  /** Metric type and its declared outputs: name, value schema, required. */
  metrics?: [string, [string, string, boolean][]][];
  /** View name, reducer, signals as `type.output` (`×weight`). */
  views?: [string, string, string[]][];
  metadata?: JsonValue;
}

/**
 * A trajectory reduced to what a reader scans: steps with their message, tool calls (arguments and
 * matched results) and unmatched observations; `calls` holds tool calls of step-less formats (OTLP).
 */
export interface CompactTrajectory {
  format: string;
  agent: string | null;
  steps: CompactStep[];
  calls: CompactToolCall[];
  note: string | null;
}

export interface CompactStep {
  id: number | null;
  source: string;
  model: string | null;
  message: string;
  reasoning: string | null;
  calls: CompactToolCall[];
  /** Observation results not matched to a call of this step. */
  observations: string[];
  tokens: [number | null, number | null] | null;
}

export interface CompactToolCall {
  id: string | null;
  name: string;
  arguments: JsonValue;
  result: JsonValue;
  isError: boolean;
}
