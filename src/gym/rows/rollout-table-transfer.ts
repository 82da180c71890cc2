import type { PyJson } from '../../pycompat/py-json.js';
import type { NonNumericField } from './rollout-table.js';
import type { RowValues } from './row-values.js';

/**
 * A {@link RolloutTable}'s rows as plain data with typed arrays trimmed to size, to hand a table built
 * in a worker thread to the main thread (the arrays' buffers can be transferred, not copied).
 */
export interface RolloutTableTransfer extends Omit<RowValues, 'infoBig' | 'infoRaw'> {
  names: string[];
  agentNames: string[];
  count: number;
  line: Float64Array;
  offset: Float64Array;
  length: Float64Array;
  task: Float64Array;
  rollout: Float64Array;
  agent: Int32Array;
  statStart: Uint32Array;
  statLen: Uint32Array;
  infoStart: Uint32Array;
  infoLen: Uint32Array;
  infoBig: [number, bigint][];
  infoRaw: [number, PyJson][];
  fieldNumeric: Uint8Array;
  nonNumeric: [number, NonNumericField][];
}
