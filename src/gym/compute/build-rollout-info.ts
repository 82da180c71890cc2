import type { PyJson, PyJsonObject } from '../../pycompat/py-json.js';
import { INFO_RAW, type RolloutTable } from '../rows/rollout-table.js';
import { VALUE_KIND } from '../rows/value-kind.js';
import { pyInt } from '../../pycompat/py-int.js';
import { setOwn } from '../../util/set-own.js';

/**
 * One `rollout_infos` item of table row `row`: `rollout_id` ("t:r"), the two indices, then `reward`
 * whenever the key exists (any value), the numeric usage items and the other numeric top-level items
 * (a top-level value beats a usage value of the same name), ints kept as ints.
 *
 * @example
 * buildRolloutInfo(table, 0); // { rollout_id: '0:1', _ng_task_index: 0n, _ng_rollout_index: 1n, reward: 1, … }
 */
export function buildRolloutInfo(table: RolloutTable, row: number): PyJsonObject {
  const t = table.task[row] as number;
  const r = table.rollout[row] as number;
  const info: PyJsonObject = {
    rollout_id: `${t}:${r}`,
    _ng_task_index: pyInt(t),
    _ng_rollout_index: pyInt(r),
  };
  const s = table.infoStart[row] as number;
  const e = s + (table.infoLen[row] as number);
  const names = table.keys.names;
  const { infoKey, infoKind, infoVal, infoBig, infoRaw } = table.valuesOf(row);
  for (let k = s; k < e; k++) {
    const name = names[infoKey[k] as number] as string;
    const kind = infoKind[k] as number;
    let v: PyJson;
    if (kind === VALUE_KIND.float) v = infoVal[k] as number;
    else if (kind === VALUE_KIND.int) v = infoBig.get(k) ?? pyInt(infoVal[k] as number);
    else if (kind === INFO_RAW) v = infoRaw.get(k) ?? null;
    else v = infoVal[k] as number;
    setOwn(info, name, v);
  }
  return info;
}
