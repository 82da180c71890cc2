import type { Summary, TaskValueRecord } from '../model/summary.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';
import { TaskValueColumn } from '../summary/task-value-column.js';
import { floatPathKey } from '../pycompat/float-path-key.js';
import { formatPyFloat } from '../pycompat/format-py-float.js';
import { pythonJson } from '../pycompat/python-json.js';
import { quotePyJsonString } from '../pycompat/quote-py-json-string.js';
import { pythonSortKeys } from '../pycompat/python-sort-keys.js';
import { rowSources } from './row-sources.js';
import { summaryToWire, type TaskValueFloatLookup } from './to-wire.js';
import type { WireValue } from '../pycompat/wire-value.js';

const CHUNK = 1 << 20;

/**
 * Fills 1 MiB buffers with ASCII text (everything `json.dumps(ensure_ascii=True)` writes is ASCII, so
 * one byte per UTF-16 unit) and hands them out whole.
 */
class AsciiChunks {
  buf = Buffer.allocUnsafe(CHUNK + 4096);
  pos = 0;

  get full(): boolean {
    return this.pos >= CHUNK;
  }

  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(CHUNK + 4096);
    this.pos = 0;
    return out;
  }

  #room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(CHUNK + 4096, this.pos + n + 4096));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** ASCII text (all `pythonJson` / `quotePyJsonString` / number output is ASCII). */
  text(s: string): void {
    this.#room(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
  }
}

/**
 * The bytes of `summary.json` (`json.dumps(summary, indent=2, sort_keys=True)`, plus the file's final
 * newline with `newline: true`) as a stream of ASCII buffers of about 1 MiB, so a big summary streams
 * to disk: `task_metric_values` (one record per trial and output, usually the bulk of the file) is
 * written record by record straight into the buffers; everything else goes through `summaryToWire` +
 * `pythonJson`. Same bytes as `pythonJson(summaryToWire(summary, isFloat), { indent: 2 })`. Each
 * yielded buffer is fresh (callers may keep it).
 *
 * @example
 * for (const bytes of summaryJsonBytes(summary, floats.lookupFor(summary.task_metric_values))) out.write(bytes);
 */
export function* summaryJsonBytes(
  summary: Summary,
  isFloat?: TaskValueFloatLookup,
  options: { newline?: boolean } = {},
): Generator<Buffer> {
  const lookup = isFloat ?? lookupFromText(summary);
  const head = summaryToWire({ ...summary, task_metric_values: {} });
  const keys = Object.keys(head).sort();
  const out = new AsciiChunks();
  out.text('{');
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    out.text(`${k === 0 ? '' : ','}\n  ${quotePyJsonString(key, true)}: `);
    if (key === 'task_metric_values') yield* taskValueChunks(out, summary.task_metric_values, lookup);
    else out.text(pythonJson(head[key] as WireValue, { indent: 2, level: 1 }));
    if (out.full) yield out.take();
  }
  out.text(options.newline ? '\n}\n' : '\n}');
  yield out.take();
}

/** For a summary read from a file: its own float literals decide. */
function lookupFromText(summary: Summary): TaskValueFloatLookup | undefined {
  if (!rowSources.isFromText(summary)) return undefined;
  const paths = rowSources.floatPaths(summary);
  if (paths === null) return () => false;
  return (taskId, key, index) => paths.has(floatPathKey(['task_metric_values', taskId, key, index, 'value']));
}

function* taskValueChunks(
  out: AsciiChunks,
  values: Summary['task_metric_values'],
  isFloat: TaskValueFloatLookup | undefined,
): Generator<Buffer> {
  const taskIds = pythonSortKeys(Object.keys(values));
  if (taskIds.length === 0) {
    out.text('{}');
    return;
  }
  out.text('{');
  // columns of a summary built by `SummaryBuilder` are read directly (no record objects) unless
  // another lookup decides; their float kinds count when `isFloat` is the columns' own
  const own = ColumnarTaskValues.of(values);
  const columnar = isFloat === undefined || isFloat === own?.isFloat ? own : null;
  const useFloatKinds = isFloat !== undefined;
  // a trial's records repeat under every key of its task: quote its id once per task
  const heads = new Map<string, string>();
  for (let t = 0; t < taskIds.length; t++) {
    const taskId = taskIds[t] as string;
    out.text(`${t === 0 ? '' : ','}\n    ${quotePyJsonString(taskId, true)}: `);
    const columns = columnar?.columns(taskId) ?? null;
    if (columns !== null) {
      yield* columnChunks(out, columns, useFloatKinds);
      continue;
    }
    const byKey = values[taskId] as Record<string, TaskValueRecord[]>;
    const keys = pythonSortKeys(Object.keys(byKey));
    if (keys.length === 0) {
      out.text('{}');
      continue;
    }
    heads.clear();
    out.text('{');
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const records = byKey[key] as TaskValueRecord[];
      // one string per list (a rope, flattened once by the write)
      let text = `${k === 0 ? '' : ','}\n      ${quotePyJsonString(key, true)}: `;
      if (records.length === 0) {
        out.text(text + '[]');
        continue;
      }
      text += '[';
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as TaskValueRecord;
        let head = heads.get(r.trial_id);
        if (head === undefined) {
          head = `\n        {\n          "trial_id": ${quotePyJsonString(r.trial_id, true)},\n          "value": `;
          heads.set(r.trial_id, head);
        }
        const value = r.value;
        text +=
          (i === 0 ? head : ',' + head) +
          formatValue(value, isIntegral(value) ? isFloat?.(taskId, key, i) : undefined) +
          recordTail(r.value_type);
        if (text.length >= 1 << 16) {
          out.text(text);
          text = '';
          if (out.full) yield out.take();
        }
      }
      out.text(text + '\n      ]');
      if (out.full) yield out.take();
    }
    out.text('\n    }');
  }
  out.text('\n  }');
}

/** One task's `{key: [records]}` from its columns (same bytes as the record path). */
function* columnChunks(
  out: AsciiChunks,
  columns: readonly (readonly [string, TaskValueColumn])[],
  useFloatKinds: boolean,
): Generator<Buffer> {
  if (columns.length === 0) {
    out.text('{}');
    return;
  }
  out.text('{');
  const trialIds = (columns[0] as readonly [string, TaskValueColumn])[1].trialIds;
  // a trial's records repeat under every key of its task: quote its id once per task
  const heads = new Array<string | undefined>(trialIds.length);
  for (let k = 0; k < columns.length; k++) {
    const [key, column] = columns[k] as readonly [string, TaskValueColumn];
    const { codes, values, labels } = column;
    const ids = column.trialIds;
    const n = codes.length;
    let text = `${k === 0 ? '' : ','}\n      ${quotePyJsonString(key, true)}: `;
    if (n === 0) {
      out.text(text + '[]');
      continue;
    }
    text += '[';
    for (let i = 0; i < n; i++) {
      const code = codes[i] as number;
      const kind = code % 8;
      const trial = (code - kind) / 8;
      let head = ids === trialIds ? heads[trial] : undefined;
      if (head === undefined) {
        head = `\n        {\n          "trial_id": ${quotePyJsonString(ids[trial] as string, true)},\n          "value": `;
        if (ids === trialIds) heads[trial] = head;
      }
      let value: string;
      let tail = TAIL_NUMBER;
      if (kind === NUMBER) value = formatNumber(values[i] as number, false);
      else if (kind === FLOAT) value = formatNumber(values[i] as number, useFloatKinds);
      else if (kind === TRUE) value = 'true';
      else if (kind === FALSE) value = 'false';
      else if (kind === LABEL) {
        value = quotePyJsonString(labels[values[i] as number] as string, true);
        tail = TAIL_LABEL;
      } else {
        value = 'null';
        tail = TAIL_MISSING;
      }
      text += (i === 0 ? head : ',' + head) + value + tail;
      if (text.length >= 1 << 16) {
        out.text(text);
        text = '';
        if (out.full) yield out.take();
      }
    }
    out.text(text + '\n      ]');
    if (out.full) yield out.take();
  }
  out.text('\n    }');
}

const NUMBER = TaskValueColumn.NUMBER;
const FLOAT = TaskValueColumn.FLOAT;
const TRUE = TaskValueColumn.TRUE;
const FALSE = TaskValueColumn.FALSE;
const LABEL = TaskValueColumn.LABEL;

const TAIL_NUMBER = ',\n          "value_type": "number"\n        }';
const TAIL_LABEL = ',\n          "value_type": "label"\n        }';
const TAIL_MISSING = ',\n          "value_type": "missing"\n        }';

function recordTail(valueType: string): string {
  if (valueType === 'number') return TAIL_NUMBER;
  if (valueType === 'label') return TAIL_LABEL;
  if (valueType === 'missing') return TAIL_MISSING;
  return `,\n          "value_type": ${quotePyJsonString(valueType, true)}\n        }`;
}

/** Only integral numbers need asking: any other number prints as a float. */
function isIntegral(value: TaskValueRecord['value']): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** A task value as `encodeTaskValueRecord` + `pythonJson` would write it. */
function formatValue(value: TaskValueRecord['value'], float: boolean | undefined): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return quotePyJsonString(value, true);
  return formatNumber(value, float === true);
}

/** A numeric task value; `float`: an integral value was a float literal. */
function formatNumber(value: number, float: boolean): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Infinity) return '"Infinity"';
  if (value === -Infinity) return '"-Infinity"';
  if (float || !Number.isInteger(value)) return formatPyFloat(value, 'repr');
  if (Object.is(value, -0)) return '0';
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}
