import type { Summary, TaskValueRecord } from '../model/summary.js';
import { floatPathKey } from './float-path-key.js';
import { pythonFloatRepr } from './python-float-repr.js';
import { pythonJson } from './python-json.js';
import { pythonQuote } from './python-quote.js';
import { pythonSortKeys } from './python-sort-keys.js';
import { rowSources } from './row-sources.js';
import { summaryToWire, type TaskValueFloatLookup } from './summary-to-wire.js';
import type { WireValue } from './wire-value.js';

const CHUNK = 1 << 16;

/**
 * The text of `summary.json` (`json.dumps(summary, indent=2, sort_keys=True)`, plus the file's final
 * newline with `newline: true`) in chunks, so a big summary streams to disk: `task_metric_values` (one record per trial and
 * output, usually the bulk of the file) is formatted record by record without building wire objects;
 * everything else goes through `summaryToWire` + `pythonJson`. Same bytes as
 * `pythonJson(summaryToWire(summary, isFloat), { indent: 2 })`.
 *
 * @example
 * for (const chunk of summaryJsonChunks(summary, floats.lookupFor(summary.task_metric_values))) out.write(chunk);
 */
export function* summaryJsonChunks(
  summary: Summary,
  isFloat?: TaskValueFloatLookup,
  options: { newline?: boolean } = {},
): Generator<string> {
  const lookup = isFloat ?? lookupFromText(summary);
  const head = summaryToWire({ ...summary, task_metric_values: {} });
  const keys = Object.keys(head).sort();
  yield '{';
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    yield `${k === 0 ? '' : ','}\n  ${pythonQuote(key)}: `;
    if (key === 'task_metric_values') yield* taskValueChunks(summary.task_metric_values, lookup);
    else yield pythonJson(head[key] as WireValue, { indent: 2, level: 1 });
  }
  yield options.newline ? '\n}\n' : '\n}';
}

/** For a summary read from a file: its own float literals decide. */
function lookupFromText(summary: Summary): TaskValueFloatLookup | undefined {
  if (!rowSources.isFromText(summary)) return undefined;
  const paths = rowSources.floatPaths(summary);
  if (paths === null) return () => false;
  return (taskId, key, index) => paths.has(floatPathKey(['task_metric_values', taskId, key, index, 'value']));
}

function* taskValueChunks(
  values: Summary['task_metric_values'],
  isFloat: TaskValueFloatLookup | undefined,
): Generator<string> {
  const taskIds = pythonSortKeys(Object.keys(values));
  if (taskIds.length === 0) {
    yield '{}';
    return;
  }
  let out = '{';
  for (let t = 0; t < taskIds.length; t++) {
    const taskId = taskIds[t] as string;
    out += `${t === 0 ? '' : ','}\n    ${pythonQuote(taskId)}: `;
    const byKey = values[taskId] as Record<string, TaskValueRecord[]>;
    const keys = pythonSortKeys(Object.keys(byKey));
    if (keys.length === 0) {
      out += '{}';
      continue;
    }
    out += '{';
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      out += `${k === 0 ? '' : ','}\n      ${pythonQuote(key)}: `;
      const records = byKey[key] as TaskValueRecord[];
      if (records.length === 0) {
        out += '[]';
        continue;
      }
      out += '[';
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as TaskValueRecord;
        out +=
          `${i === 0 ? '' : ','}\n        {\n          "trial_id": ${pythonQuote(r.trial_id)},\n          "value": ` +
          formatValue(r.value, isFloat?.(taskId, key, i)) +
          `,\n          "value_type": ${pythonQuote(r.value_type)}\n        }`;
        if (out.length >= CHUNK) {
          yield out;
          out = '';
        }
      }
      out += '\n      ]';
    }
    out += '\n    }';
  }
  yield out + '\n  }';
}

/** A task value as `encodeTaskValueRecord` + `pythonJson` would write it. */
function formatValue(value: TaskValueRecord['value'], float: boolean | undefined): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return pythonQuote(value);
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Infinity) return '"Infinity"';
  if (value === -Infinity) return '"-Infinity"';
  if (float === true || !Number.isInteger(value)) return pythonFloatRepr(value);
  if (Object.is(value, -0)) return '0';
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}
