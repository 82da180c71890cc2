import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import { PyFloat } from '../pycompat/py-float.js';
import { rowSources } from './row-sources.js';
import type { WireObject, WireValue } from '../pycompat/wire-value.js';

/** Looks up the declared `value_schema` of a metric output (from the task spec), if known. */
export type ValueSchemaLookup = (metricType: string, outputName: string) => string | undefined;

/**
 * A score record in its `scores.jsonl` form. Output values: NaN → `"NaN"`, ±Infinity → `null`
 * (spec §3.2). A finite number keeps the JSON type it was read with (rows from a bundle); a number
 * built in memory prints as a float when the task declares the output `ContinuousScore`, otherwise
 * as an int when integral.
 *
 * @example
 * scoreToWire(score, () => 'ContinuousScore'); // outputs[0].value: PyFloat(1)
 */
export function scoreToWire(score: ScoreRecord, valueSchemaOf?: ValueSchemaLookup): WireObject {
  const fromText = rowSources.isFromText(score);
  // keys in written (sorted) order, so the writer finds them sorted and need not sort
  return {
    diagnostics: score.diagnostics.map((d) => ({
      details: d.details,
      message: d.message,
      severity: d.severity,
      source: d.source,
    })),
    id: score.id,
    metadata: score.metadata,
    metric_type: score.metric_type,
    outputs: score.outputs.map((o) => ({
      name: o.name,
      value: outputValue(
        o.value,
        fromText || valueSchemaOf?.(score.metric_type, o.name) !== 'ContinuousScore',
      ),
    })),
    run_id: score.run_id,
    status: score.status,
    task_id: score.task_id,
    trial_id: score.trial_id,
  };
}

function outputValue(value: JsonValue, keepJsonType: boolean): WireValue {
  if (typeof value !== 'number') return value;
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return null;
  return keepJsonType ? value : new PyFloat(value);
}
