import type { PyJson } from '../../pycompat/py-json.js';

/**
 * Where some rows' values are (see `RolloutTable.valuesOf`): the statistics values and the
 * `rollout_infos` items, each as key id, value and kind at a flat index, with the exact big ints and
 * raw rewards of items by flat index.
 *
 * @example
 * const v = table.valuesOf(r);
 * for (let k = table.statStart[r]; k < table.statStart[r] + table.statLen[r]; k++) use(v.statKey[k], v.statVal[k]);
 */
export interface RowValues {
  statKey: Int32Array;
  statVal: Float64Array;
  statKind: Uint8Array;
  infoKey: Int32Array;
  infoVal: Float64Array;
  infoKind: Uint8Array;
  infoBig: Map<number, bigint>;
  infoRaw: Map<number, PyJson>;
}
