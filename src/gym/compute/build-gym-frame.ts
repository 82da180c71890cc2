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
  const frame: GymFrame = {
    n,
    rows,
    task: new Float64Array(n),
    rollout: new Float64Array(n),
    names: [],
    columns: [],
    intColumn: [],
  };
  // one pass over the rows (each row's values are read once, in frame order): a column is made when
  // its field is first seen. When the table's keys could make more columns than allowed, the rows'
  // fields are counted first, so that a frame too large is refused before any column exists.
  const colOf = new Int32Array(table.keys.names.length).fill(-1);
  if (table.keys.names.length * n > maxValues) {
    const fields = countFields(table, rows);
    if (fields * n > maxValues) throw tooWide(fields, n, maxValues);
  }
  const intCount: number[] = [];
  fillFrame(table, rows, frame, intCount, colOf);
  frame.intColumn = intCount.map((count) => count === n);
  return frame;
}

/**
 * Fills `frame` from the rows, counting each column's int values in `intCount`.
 */
function fillFrame(
  table: RolloutTable,
  rows: Int32Array,
  frame: GymFrame,
  intCount: number[],
  colOf: Int32Array,
): void {
  const { task, rollout, columns } = frame;
  const { statStart, statLen } = table;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as number;
    task[i] = table.task[r] as number;
    rollout[i] = table.rollout[r] as number;
    const { statKey, statVal, statKind } = table.valuesOf(r);
    const s = statStart[r] as number;
    const e = s + (statLen[r] as number);
    for (let k = s; k < e; k++) {
      const key = statKey[k] as number;
      let c = colOf[key] as number;
      if (c < 0) c = addColumn(table, frame, intCount, colOf, key);
      (columns[c] as Float64Array)[i] = statVal[k] as number;
      if (statKind[k] === VALUE_KIND.int) intCount[c] = (intCount[c] as number) + 1;
    }
  }
}

/** A new all-NaN column for field `key`. */
function addColumn(
  table: RolloutTable,
  frame: GymFrame,
  intCount: number[],
  colOf: Int32Array,
  key: number,
): number {
  const c = frame.names.length;
  colOf[key] = c;
  frame.names.push(table.keys.names[key] as string);
  frame.columns.push(new Float64Array(frame.n).fill(NaN));
  intCount.push(0);
  return c;
}

function tooWide(fields: number, n: number, maxValues: number): GymInputError {
  const gb = (fields * n * 8) / 1e9;
  return new GymInputError(
    'too_wide',
    `the rows have ${fields} distinct numeric fields: their statistics frame (${n} rows × ` +
      `${fields} fields, ${gb.toFixed(1)} GB) is larger than this machine can hold ` +
      `(${maxValues} values); Gym would build a pandas DataFrame of the same size`,
  );
}

/** The number of distinct statistics fields of `rows`. */
function countFields(table: RolloutTable, rows: Int32Array): number {
  const seen = new Uint8Array(table.keys.names.length);
  let count = 0;
  for (const r of rows) {
    const { statKey } = table.valuesOf(r);
    const s = table.statStart[r] as number;
    for (let k = s; k < s + (table.statLen[r] as number); k++) {
      const key = statKey[k] as number;
      if (seen[key] === 0) {
        seen[key] = 1;
        count++;
      }
    }
  }
  return count;
}
