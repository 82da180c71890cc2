import type { EvidenceDescriptor } from '../model/trial.js';
import type { TraceHandle } from './trace-handle.js';

/** What a trace loader gets besides the descriptor: how to turn a `ref` into a local path. */
export interface TraceLoaderContext {
  /** Absolute local path of a ref (relative refs resolve against the evidence base dir). */
  resolveRef(ref: string): string;
}

/**
 * Builds a trace handle for a descriptor of one format (`otlp`, ...). Passed per instance as
 * `new CandidateEvidence(record, { traceLoaders: { otlp: loader } })` (no global registry); may return
 * a promise to preload data.
 *
 * @example
 * const ev = new CandidateEvidence(record, { traceLoaders: { otlp: (d, ctx) => myHandle(d, ctx) } });
 */
export type TraceLoader = (
  descriptor: EvidenceDescriptor,
  context: TraceLoaderContext,
) => TraceHandle | Promise<TraceHandle>;
