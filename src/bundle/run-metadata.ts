import type { z } from 'zod';
import type { rowSchemas } from './row-schemas.js';

/**
 * `metadata.json` (`RunMetadata`): labels, target identity (`RunnerInfo`: `kind` is `runner`,
 * `model`, `agent` or `imported`), UTC timestamps as written, wall-clock duration and the producing
 * tool's version.
 *
 * @example
 * const m: RunMetadata = { labels: {}, target: null, started_at: null, finished_at: null, duration_sec: null, sdk_version: 'evalstream 0.1.0' };
 */
export type RunMetadata = z.output<typeof rowSchemas.metadata>;
export type RunTarget = NonNullable<RunMetadata['target']>;
