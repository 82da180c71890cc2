import type { PyJson } from '../../pycompat/py-json.js';
import type { NonNumericField } from './rollout-table.js';

/**
 * A {@link RolloutTable}'s rows as plain data with typed arrays trimmed to size, to hand a table built
 * in a worker thread to the main thread (the arrays' buffers can be transferred, not copied).
 */
export interface RolloutTableTransfer {
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
  statKey: Int32Array;
  statVal: Float64Array;
  statKind: Uint8Array;
  infoKey: Int32Array;
  infoVal: Float64Array;
  infoKind: Uint8Array;
  infoBig: [number, bigint][];
  infoRaw: [number, PyJson][];
  fieldNumeric: Uint8Array;
  nonNumeric: [number, NonNumericField][];
}
