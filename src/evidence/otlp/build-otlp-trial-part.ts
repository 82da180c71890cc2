import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { buildOtlpTrialItem } from './build-otlp-trial-item.js';
import type { OTLPTraceHandle } from './otlp-trace-handle.js';

/**
 * One trial as `OtlpTrialGrouper` assembled it: its grouping key, which part of that key it is (a
 * key whose spans stop for longer than the window comes out in parts 1, 2, …), the trial id and task
 * id it was named with (null task: named after the trial), its spans and where they started.
 */
export interface OtlpTrialPart {
  key: string;
  part: number;
  trialId: string;
  taskId: string | null;
  handle: OTLPTraceHandle;
  origin: ItemOrigin;
  /** What the decoder went on past in its spans. */
  diagnostics?: TrialDiagnostic[];
}

/**
 * The trial item of one part: part 1 keeps the trial id, part n is `<id>#n` with `otlp_split_trial`
 * and `otlp_split_part` in its metadata; the task id defaults to the item's trial id.
 *
 * @example
 * buildOtlpTrialPart({ key, part: 2, trialId: 'conv-1', taskId: null, handle, origin }).trial.id; // 'conv-1#2'
 */
export function buildOtlpTrialPart(made: OtlpTrialPart): TrialItem {
  const trialId = made.part === 1 ? made.trialId : `${made.trialId}#${made.part}`;
  return buildOtlpTrialItem({
    trialId,
    taskId: made.taskId ?? trialId,
    handle: made.handle,
    origin: made.origin,
    metadata: made.part === 1 ? {} : { otlp_split_trial: true, otlp_split_part: made.part },
    ...(made.diagnostics === undefined ? {} : { diagnostics: made.diagnostics }),
  });
}
