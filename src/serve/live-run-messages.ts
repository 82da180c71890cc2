import type { ConfigProblem } from '../config/config-error.js';
import type { LiveEvent } from './live-state.js';
import type { LiveRunOptions } from './open-live-run.js';
import type { OtlpSignal, Saturated } from './serve-types.js';

/**
 * What the receiving thread asks of the live run's thread (`live-run-worker`). A request with an
 * `id` is answered by one {@link LiveRunReply} `answer` (or `failed`) with the same `id`.
 *
 * - `open`: open the run (answered by `opened` or `open-failed`, without `id`);
 * - `body`: decode and accept a request body (answer: `ExportOutcome | Saturated | Undecodable`);
 *   its bytes are moved, not copied;
 * - `wait`: `waitForCapacity(timeoutMs)` (answer: null);
 * - `throttled`: an export was refused because the queues were full (counted, not answered);
 * - `read`: the summary (`summary`, `summary-light` without `task_metric_values`: the JSON text),
 *   one trial (`trial`: the JSON value or undefined), `/metrics` text, the run's `problem`;
 * - `events`: start or stop sending score events;
 * - `finish`: end the run and write its outputs (answer: `LiveRunEnd`).
 */
export type LiveRunRequest =
  | { type: 'open'; options: LiveRunOptions }
  | { type: 'body'; id: number; body: Uint8Array; encoding: 'protobuf' | 'json'; signal: OtlpSignal }
  | { type: 'wait'; id: number; timeoutMs: number }
  | { type: 'throttled' }
  | { type: 'read'; id: number; what: 'summary' | 'summary-light' | 'metrics' | 'problem' }
  | { type: 'read'; id: number; what: 'trial'; trialId: string }
  | { type: 'events'; on: boolean }
  | { type: 'finish'; id: number };

/**
 * What the live run's thread tells the receiving thread: answers, and as they happen the queues'
 * state (`capacity`: the refusal while they are full, null once they have room), score events,
 * warnings and problems (as `openLiveRun`'s `onWarning` / `onProblem`).
 */
export type LiveRunReply =
  | { type: 'opened'; runId: string }
  | { type: 'open-failed'; message: string; config: { file: string; problems: ConfigProblem[] } | null }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string }
  | { type: 'capacity'; saturated: Saturated | null }
  | { type: 'event'; event: LiveEvent }
  | { type: 'warning'; message: string }
  | { type: 'problem'; message: string };
