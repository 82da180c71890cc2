import type { BundleIssue } from '../bundle/bundle-issue.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { TaskSpec } from '../model/task.js';
import type { ItemOrigin } from '../model/trial-item.js';
import type { Trial } from '../model/trial.js';
import type { CompactTrajectory } from '../report/report-data.js';
import type { WorkChunk } from './work-chunk.js';

/** What a scoring worker is started with (its `workerData`). */
export interface ScoreWorkerData {
  /** The config file each worker loads itself, or `(defaults)`. */
  configFile: string;
  /** `--concurrency`, when it overrides the config. */
  concurrency: number | null;
  runId: string;
  /** Whether the report is written: then the worker reads the trajectories it may embed. */
  report: boolean;
}

/** An error sent between threads: its kind decides how the other side rebuilds it. */
export type ErrorWire =
  | {
      kind: 'input';
      message: string;
      file: string;
      line: number | null;
      offset: number | null;
      field: string | null;
    }
  | { kind: 'bundle'; issues: BundleIssue[] }
  | { kind: 'other'; message: string };

/**
 * A trial as read by a worker: the record the bundle writes, the source's task spec, where it came
 * from, and `floats`: the float paths of a record read from bundle text (null: not from text).
 */
export interface TrialWire {
  trial: Trial;
  task: TaskSpec | null;
  origin: ItemOrigin;
  floats: string[] | null;
}

/** How a worker scores the trials of one task, decided by the main thread at the task's first trial. */
export interface TaskPlanWire {
  /** The task as scored (descriptors of the applied metrics, views). */
  task: TaskSpec;
  rowIndex: number;
  /** The task's first trial and its source spec: the worker picks the same metrics from them. */
  first: { trial: Trial; task: TaskSpec | null };
}

/** One scored trial sent back: its scores (with their float paths) and, maybe, its report trajectory. */
export interface ScoredWire {
  scores: ScoreRecord[];
  floats: (string[] | null)[];
  /** Present when the report may embed this trial's trajectory. */
  trajectory?: CompactTrajectory | string | null;
}

/** One OTLP payload sent to a worker: a JSON text, or a protobuf body as a range of the chunk's bytes. */
export type OtlpPayloadWire =
  | { file: string; kind: 'json'; text: string; line: number; offset: number }
  | { file: string; kind: 'protobuf'; start: number; end: number; offset: number; bodyOffset: number };

/**
 * What the main thread needs to know whether an `otlp-frames` chunk was grouped as one pass would
 * group it (see `scoreInWorkers`): the trace ids its first and last `windowRequests` requests touch,
 * its requests, the most spans it held, and the trial key and part of each trial it emitted.
 */
export interface OtlpChunkCheck {
  head: string[];
  tail: string[];
  requests: number;
  peakSpans: number;
  keys: string[];
  parts: number[];
}

/** Main thread → worker. */
export type ToWorkerMessage =
  | { type: 'chunk'; id: number; chunk: WorkChunk }
  | { type: 'plans'; id: number; plans: TaskPlanWire[] }
  | { type: 'drop'; id: number }
  /** Renumber split OTLP trials (`[index, part]`) and send the chunk's `read` again. */
  | { type: 'rename'; id: number; parts: [number, number][] };

/** Worker → main thread. */
export type FromWorkerMessage =
  | {
      type: 'read';
      id: number;
      trials: TrialWire[];
      /** ATIF chunks: the trial-id counts after reading (see `WorkChunk`). */
      trialIdCounts: [string, number][] | null;
      /** Payloads skipped as bad (warnings). */
      issues: string[];
      /** What ended the reading early: raised after the trials before it. */
      error: ErrorWire | null;
      /** `otlp-frames` chunks: how they were grouped. */
      otlp: OtlpChunkCheck | null;
      /** `otlp-frames` chunks: the bytes the chunk came with, moved back (the worker decodes a copy). */
      bytes: ArrayBuffer | null;
    }
  | { type: 'scored'; id: number; results: ScoredWire[] }
  | { type: 'failed'; id: number; error: ErrorWire };
