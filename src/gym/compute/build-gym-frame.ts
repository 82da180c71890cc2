import type { RolloutTable } from '../rows/rollout-table.js';
import { VALUE_KIND } from '../rows/value-kind.js';

/**
 * The numeric DataFrame Gym builds for a set of rows: one Float64Array per field (NaN = missing) in
 * the order fields are first seen across the rows, plus whether each column is an all-integer
 * column without missing values (pandas int64), and the rows' indices.
 */
export interface GymFrame {
  /** Number of rows. */
  n: number;
  /** Table row index of each frame row. */
  rows: Int32Array;
  task: Float64Array;
  rollout: Float64Array;
  names: string[];
  columns: Float64Array[];
  /** pandas dtype int64: every row has the field and every value is an int (or bool). */
  intColumn: boolean[];
}

/**
 * Builds the {@link GymFrame} of `rows` (table row indices, already in Gym's row order).
 *
 * @example
 * const frame = buildGymFrame(table, agentRowsSorted);
 */
export function buildGymFrame(table: RolloutTable, rows: Int32Array): GymFrame {
  const n = rows.length;
  const colOf = new Int32Array(table.keys.names.length).fill(-1);
  const names: string[] = [];
  const keysOfCol: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = rows[i] as number;
    const s = table.statStart[r] as number;
    const e = s + (table.statLen[r] as number);
    for (let k = s; k < e; k++) {
      const key = table.statKey[k] as number;
      if (colOf[key] === -1) {
        colOf[key] = names.length;
        names.push(table.keys.names[key] as string);
        keysOfCol.push(key);
      }
    }
  }
  const columns = names.map(() => new Float64Array(n).fill(NaN));
  const intCount = new Int32Array(names.length);
  const task = new Float64Array(n);
  const rollout = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i] as number;
    task[i] = table.task[r] as number;
    rollout[i] = table.rollout[r] as number;
    const s = table.statStart[r] as number;
    const e = s + (table.statLen[r] as number);
    for (let k = s; k < e; k++) {
      const c = colOf[table.statKey[k] as number] as number;
      (columns[c] as Float64Array)[i] = table.statVal[k] as number;
      if (table.statKind[k] === VALUE_KIND.int) intCount[c] = (intCount[c] as number) + 1;
    }
  }
  const intColumn = names.map((_, c) => intCount[c] === n);
  return { n, rows, task, rollout, names, columns, intColumn };
}
