import { totalmem } from 'node:os';
import { GymInputError } from '../gym-input-error.js';
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
 * The most values a frame may hold by default: half of this machine's memory in doubles. A frame is
 * rows × numeric fields; rows with many distinct field names (hostile or broken input) would
 * otherwise make it fail with an out-of-memory crash instead of an error.
 */
export function defaultFrameMaxValues(): number {
  // read once: `totalmem()` asks the system each time, and a run may build a frame per agent
  frameMaxValues ??= Math.floor(totalmem() / 2 / 8);
  return frameMaxValues;
}
let frameMaxValues: number | undefined;

/**
 * Builds the {@link GymFrame} of `rows` (table row indices, already in Gym's row order). A frame of
 * more than `maxValues` values (rows × fields) is a {@link GymInputError} (`too_wide`).
 *
 * @example
 * const frame = buildGymFrame(table, agentRowsSorted);
 */
export function buildGymFrame(
  table: RolloutTable,
  rows: Int32Array,
  maxValues: number = defaultFrameMaxValues(),
): GymFrame {
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
  if (names.length * n > maxValues) {
    const gb = (names.length * n * 8) / 1e9;
    throw new GymInputError(
      'too_wide',
      `the rows have ${names.length} distinct numeric fields: their statistics frame (${n} rows × ` +
        `${names.length} fields, ${gb.toFixed(1)} GB) is larger than this machine can hold ` +
        `(${maxValues} values); Gym would build a pandas DataFrame of the same size`,
    );
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
