import type { Trial } from '../model/trial.js';
import { PyFloat } from '../pycompat/py-float.js';
import type { WireObject } from '../pycompat/wire-value.js';

/**
 * A trial in its `trials.jsonl` form: `runtime_sec` / `cost_usd` are floats, token counts ints;
 * `mapRef` decides what each evidence `ref` is stored as (bundle-relative when inside the bundle).
 *
 * @example
 * trialToWire(trial, await new EvidencePlacer(bundleDir).place(trial));
 */
export function trialToWire(
  trial: Trial,
  mapRef: (ref: string | null) => string | null = (r) => r,
): WireObject {
  const m = trial.measurements;
  const evidence = trial.evidence;
  const output = trial.output;
  const error = trial.error;
  // keys in written (sorted) order, so the writer finds them sorted and need not sort
  return {
    error:
      error === null
        ? null
        : {
            message: error.message,
            occurred_at: error.occurred_at,
            traceback: error.traceback,
            type: error.type,
          },
    evidence:
      evidence === null
        ? null
        : {
            descriptors: Object.fromEntries(
              Object.entries(evidence.descriptors).map(([name, d]) => [
                name,
                {
                  data: d.data,
                  description: d.description,
                  format: d.format,
                  kind: d.kind,
                  metadata: d.metadata,
                  ref: mapRef(d.ref),
                },
              ]),
            ),
            metadata: evidence.metadata,
          },
    id: trial.id,
    measurements: {
      cache_creation_tokens: m.cache_creation_tokens,
      cache_read_tokens: m.cache_read_tokens,
      completion_tokens: m.completion_tokens,
      cost_usd: m.cost_usd === null ? null : new PyFloat(m.cost_usd),
      prompt_tokens: m.prompt_tokens,
      runtime_sec: m.runtime_sec === null ? null : new PyFloat(m.runtime_sec),
      total_tokens: m.total_tokens,
    },
    metadata: trial.metadata,
    output:
      output === null
        ? null
        : { metadata: output.metadata, output_text: output.output_text, response: output.response },
    status: trial.status,
    task_id: trial.task_id,
  };
}
