import type { ScoreRecord } from '../model/score-record.js';
import type { Trial } from '../model/trial.js';
import { formatPyFloat } from '../pycompat/format-py-float.js';
import { pythonJson } from '../pycompat/python-json.js';
import { pythonSortKeys } from '../pycompat/python-sort-keys.js';
import { quotePyJsonString } from '../pycompat/quote-py-json-string.js';
import type { WireValue } from '../pycompat/wire-value.js';
import { rowSources } from './row-sources.js';
import { scoreOutputToWire, scoreToWire, trialToWire, type ValueSchemaLookup } from './to-wire.js';

// The lines of `trials.jsonl` and `scores.jsonl`: `pythonJson(trialToWire(…))` and
// `pythonJson(scoreToWire(…))`, written field by field in their sorted key order without building the
// wire object first. Only the free-form values (metadata, outputs' values, ...) go through
// `pythonJson`. A row read from text with integral float literals takes the generic path, which
// follows its float paths.

/**
 * A trial's `trials.jsonl` line: the text of `pythonJson(trialToWire(trial, mapRef), { floatPaths })`.
 * `metadataText`, when given, is `pythonJson(trial.metadata)` already written.
 *
 * @example
 * await writer.writeLine(trialJson(trial, mapRef));
 */
export function trialJson(
  trial: Trial,
  mapRef: (ref: string | null) => string | null = (r) => r,
  metadataText: string = py(trial.metadata),
): string {
  const floatPaths = rowSources.floatPaths(trial);
  if (floatPaths !== null && floatPaths.size > 0)
    return pythonJson(trialToWire(trial, mapRef), { floatPaths });
  const m = trial.measurements;
  const error = trial.error;
  const evidence = trial.evidence;
  const output = trial.output;
  let evidenceText = 'null';
  if (evidence !== null) {
    const descriptors = evidence.descriptors;
    const names = pythonSortKeys(Object.keys(descriptors));
    let text = '{';
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const d = descriptors[name] as (typeof descriptors)[string];
      text +=
        `${i === 0 ? '' : ', '}${quotePyJsonString(name, true)}: {"data": ${py(d.data)}, ` +
        `"description": ${py(d.description)}, "format": ${py(d.format)}, "kind": ${py(d.kind)}, ` +
        `"metadata": ${py(d.metadata)}, "ref": ${py(mapRef(d.ref))}}`;
    }
    evidenceText = `{"descriptors": ${text}}, "metadata": ${py(evidence.metadata)}}`;
  }
  const errorText =
    error === null
      ? 'null'
      : `{"message": ${py(error.message)}, "occurred_at": ${py(error.occurred_at)}, ` +
        `"traceback": ${py(error.traceback)}, "type": ${py(error.type)}}`;
  const outputText =
    output === null
      ? 'null'
      : `{"metadata": ${py(output.metadata)}, "output_text": ${py(output.output_text)}, ` +
        `"response": ${py(output.response)}}`;
  return (
    `{"error": ${errorText}, "evidence": ${evidenceText}, "id": ${py(trial.id)}, ` +
    `"measurements": {"cache_creation_tokens": ${py(m.cache_creation_tokens)}, ` +
    `"cache_read_tokens": ${py(m.cache_read_tokens)}, "completion_tokens": ${py(m.completion_tokens)}, ` +
    `"cost_usd": ${float(m.cost_usd)}, "prompt_tokens": ${py(m.prompt_tokens)}, ` +
    `"runtime_sec": ${float(m.runtime_sec)}, "total_tokens": ${py(m.total_tokens)}}, ` +
    `"metadata": ${metadataText}, "output": ${outputText}, "status": ${py(trial.status)}, ` +
    `"task_id": ${py(trial.task_id)}}`
  );
}

/**
 * A score's `scores.jsonl` line: the text of `pythonJson(scoreToWire(score, valueSchemaOf), { floatPaths })`.
 * `trialMetadata` is the scored trial's metadata with its text (see {@link trialJson}): a score's
 * `metadata.trial_metadata` that is that object is not written again.
 *
 * @example
 * await writer.writeLine(scoreJson(score, declaredValueSchemas(task)));
 */
export function scoreJson(
  score: ScoreRecord,
  valueSchemaOf?: ValueSchemaLookup,
  trialMetadata?: { readonly value: unknown; readonly text: string },
): string {
  const floatPaths = rowSources.floatPaths(score);
  if (floatPaths !== null && floatPaths.size > 0)
    return pythonJson(scoreToWire(score, valueSchemaOf), { floatPaths });
  const fromText = rowSources.isFromText(score);
  let diagnostics = '[';
  for (let i = 0; i < score.diagnostics.length; i++) {
    const d = score.diagnostics[i] as ScoreRecord['diagnostics'][number];
    diagnostics +=
      `${i === 0 ? '' : ', '}{"details": ${py(d.details)}, "message": ${py(d.message)}, ` +
      `"severity": ${py(d.severity)}, "source": ${py(d.source)}}`;
  }
  let outputs = '[';
  for (let i = 0; i < score.outputs.length; i++) {
    const o = score.outputs[i] as ScoreRecord['outputs'][number];
    const keepJsonType = fromText || valueSchemaOf?.(score.metric_type, o.name) !== 'ContinuousScore';
    outputs += `${i === 0 ? '' : ', '}{"name": ${py(o.name)}, "value": ${py(scoreOutputToWire(o.value, keepJsonType))}}`;
  }
  const metadata = score.metadata;
  let metadataText: string;
  if (trialMetadata !== undefined && metadata['trial_metadata'] === trialMetadata.value) {
    const keys = Object.keys(metadata);
    metadataText =
      keys.length === 2 && keys[0] === 'row_index' && keys[1] === 'trial_metadata'
        ? `{"row_index": ${py(metadata['row_index'])}, "trial_metadata": ${trialMetadata.text}}`
        : py(metadata);
  } else {
    metadataText = py(metadata);
  }
  return (
    `{"diagnostics": ${diagnostics}], "id": ${py(score.id)}, "metadata": ${metadataText}, ` +
    `"metric_type": ${py(score.metric_type)}, "outputs": ${outputs}], "run_id": ${py(score.run_id)}, ` +
    `"status": ${py(score.status)}, "task_id": ${py(score.task_id)}, "trial_id": ${py(score.trial_id)}}`
  );
}

/** One value as `pythonJson` writes it (strings, the most common, without its dispatch). */
function py(value: unknown): string {
  return typeof value === 'string' ? quotePyJsonString(value, true) : pythonJson(value as WireValue);
}

/** A float-typed measurement as `pythonJson` writes its `PyFloat` box; null stays null. */
function float(value: number | null): string {
  return value === null ? 'null' : formatPyFloat(value, 'repr');
}
