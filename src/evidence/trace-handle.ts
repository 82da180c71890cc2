import type { TrajectoryView } from '../model/trajectory-view.js';

/**
 * What `CandidateEvidence.trace()` returns: any trace handle (ATIF or OTLP). Narrow on `format`
 * (`'atif'` → `ATIFTraceHandle`, `'otlp'` → the OTLP handle) before using format-specific methods.
 *
 * @example
 * const h: TraceHandle = await evidence.trace();
 * if (h.format === 'atif') console.log(h.stepCount());
 */
export type TraceHandle = TrajectoryView;
