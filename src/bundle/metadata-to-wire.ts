import { PyFloat } from '../pycompat/py-float.js';
import type { RunMetadata } from './run-metadata.js';
import type { WireObject } from '../pycompat/wire-value.js';

/**
 * `metadata.json` in wire form (`duration_sec` is a float).
 *
 * @example
 * pythonJson(metadataToWire(meta), { indent: 2 });
 */
export function metadataToWire(meta: RunMetadata): WireObject {
  return {
    labels: meta.labels,
    target:
      meta.target === null
        ? null
        : {
            name: meta.target.name,
            kind: meta.target.kind,
            version: meta.target.version,
            config: meta.target.config,
          },
    started_at: meta.started_at,
    finished_at: meta.finished_at,
    duration_sec: meta.duration_sec === null ? null : new PyFloat(meta.duration_sec),
    sdk_version: meta.sdk_version,
  };
}
