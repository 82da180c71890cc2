import type { JsonObject } from '../model/json-value.js';

/** Who produced a run's trials (`RunnerInfo`): `kind` is `runner`, `model`, `agent` or `imported`. */
export interface RunTarget {
  name: string;
  kind: string;
  version: string | null;
  config: JsonObject;
}

/**
 * `metadata.json` (`RunMetadata`): labels, target identity, UTC timestamps as written, wall-clock
 * duration and the producing tool's version.
 *
 * @example
 * const m: RunMetadata = { labels: {}, target: null, started_at: null, finished_at: null, duration_sec: null, sdk_version: 'evalstream 0.1.0' };
 */
export interface RunMetadata {
  labels: Record<string, string>;
  target: RunTarget | null;
  started_at: string | null;
  finished_at: string | null;
  duration_sec: number | null;
  sdk_version: string | null;
}
