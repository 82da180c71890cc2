import { AGGREGATE_INTEGER_KEYS, type AggregateScore, type Summary } from '../model/summary.js';
import { encodeTaskValueRecord } from '../summary/encode-task-value-record.js';
import { PyFloat } from '../pycompat/py-float.js';
import { rowSources } from './row-sources.js';
import type { WireObject, WireValue } from '../pycompat/wire-value.js';
import { setOwn } from '../util/set-own.js';

/** Says whether the `index`-th record of `task_metric_values[taskId][key]` holds a float (undefined = unknown). */
export type TaskValueFloatLookup = (taskId: string, key: string, index: number) => boolean | undefined;

const INTEGER_KEYS: ReadonlySet<string> = new Set(AGGREGATE_INTEGER_KEYS);

/**
 * `summary.json` in wire form. Aggregate statistics are floats except `count` / `nan_count` (at any
 * depth); coverage and counts are ints; task values keep their JSON type: `isFloat` tells for values
 * computed in memory, a summary read from a file keeps its own literals; non-finite task values become
 * the `"NaN"` / `"Infinity"` / `"-Infinity"` tokens (spec §7.4).
 *
 * @example
 * pythonJson(summaryToWire(summary, tracker.lookup), { indent: 2 });
 */
export function summaryToWire(summary: Summary, isFloat?: TaskValueFloatLookup): WireObject {
  const fromText = rowSources.isFromText(summary);
  const values: Record<string, Record<string, WireValue[]>> = {};
  for (const [taskId, byKey] of Object.entries(summary.task_metric_values)) {
    const out: Record<string, WireValue[]> = {};
    for (const [key, records] of Object.entries(byKey)) {
      setOwn(
        out,
        key,
        records.map((record, index) => {
          const wire = encodeTaskValueRecord(record);
          let value: WireValue = wire.value;
          if (typeof value === 'number' && !fromText) {
            const float = isFloat?.(taskId, key, index);
            if (float === true || (float === undefined && !Number.isInteger(value)))
              value = new PyFloat(value);
          }
          return { trial_id: wire.trial_id, value_type: wire.value_type, value };
        }),
      );
    }
    setOwn(values, taskId, out);
  }
  return {
    scores: { scores: summary.scores.scores.map(aggregateToWire) },
    metric_coverage: summary.metric_coverage as unknown as WireObject,
    task_metric_values: values,
    task_count: summary.task_count,
    trial_count: summary.trial_count,
    score_count: summary.score_count,
    error_trial_ids: summary.error_trial_ids,
    error_count: summary.error_count,
  };
}

function aggregateToWire(aggregate: AggregateScore): WireObject {
  return boxFloats(aggregate as unknown as WireObject) as WireObject;
}

function boxFloats(value: WireValue, key?: string): WireValue {
  if (typeof value === 'number')
    return key !== undefined && INTEGER_KEYS.has(key) ? value : new PyFloat(value);
  if (value === null || typeof value !== 'object' || value instanceof PyFloat) return value;
  if (Array.isArray(value)) return (value as readonly WireValue[]).map((v) => boxFloats(v));
  const out: Record<string, WireValue> = {};
  for (const [k, v] of Object.entries(value as WireObject)) setOwn(out, k, boxFloats(v, k));
  return out;
}
