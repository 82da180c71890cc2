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
  return {
    id: trial.id,
    task_id: trial.task_id,
    status: trial.status,
    output:
      output === null
        ? null
        : { output_text: output.output_text, response: output.response, metadata: output.metadata },
    evidence:
      evidence === null
        ? null
        : {
            descriptors: Object.fromEntries(
              Object.entries(evidence.descriptors).map(([name, d]) => [
                name,
                {
                  kind: d.kind,
                  format: d.format,
                  ref: mapRef(d.ref),
                  data: d.data,
                  description: d.description,
                  metadata: d.metadata,
                },
              ]),
            ),
            metadata: evidence.metadata,
          },
    error:
      error === null
        ? null
        : {
            type: error.type,
            message: error.message,
            traceback: error.traceback,
            occurred_at: error.occurred_at,
          },
    measurements: {
      prompt_tokens: m.prompt_tokens,
      completion_tokens: m.completion_tokens,
      total_tokens: m.total_tokens,
      cache_creation_tokens: m.cache_creation_tokens,
      cache_read_tokens: m.cache_read_tokens,
      runtime_sec: m.runtime_sec === null ? null : new PyFloat(m.runtime_sec),
      cost_usd: m.cost_usd === null ? null : new PyFloat(m.cost_usd),
    },
    metadata: trial.metadata,
  };
}
