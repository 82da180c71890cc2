import type { OtlpLogRecord, OtlpResourceSpans } from '../evidence/otlp/otlp-types.js';
import type { RetainedBody } from './body-arena.js';
import type { ExportOutcome } from './export-response.js';

/** The receiver's answer when its queues are full: retry later (HTTP 429 / gRPC RESOURCE_EXHAUSTED). */
export interface Saturated {
  saturated: true;
  retryAfterSec: number;
  message: string;
}

/** Takes decoded spans from any transport; never drops silently: it accepts, rejects or saturates. */
export interface ExportHandler {
  /**
   * Asked before a request's body is read: the refusal every request with spans would get now (queues
   * full, sink failed), or null. Lets a saturated receiver answer without reading or decoding.
   */
  saturation(): Saturated | null;
  /** Whether the queues are full now (no counting, unlike `saturation`). */
  isSaturated(): boolean;
  /**
   * Resolves as soon as the queues have room (at once when they have), or after `timeoutMs` (the
   * caller asks `saturation()` next either way). Waiters are let in one per freed slot, oldest first.
   */
  waitForCapacity(timeoutMs: number): Promise<void>;
  /**
   * `reload` decodes the same request body again (the handler may drop the spans and re-read them);
   * `body`, the bytes both read from, is retained while the handler needs them and released after.
   */
  accept(
    resourceSpans: readonly OtlpResourceSpans[],
    reload?: () => readonly OtlpResourceSpans[],
    body?: RetainedBody,
  ): ExportOutcome | Saturated;
  /**
   * Takes one logs export's records (`POST /v1/logs`, gRPC `LogsService/Export`): each joins the
   * trial of its trace id; records that cannot (no trace id, trial sealed) are refused as partial
   * success.
   */
  acceptLogs(records: readonly OtlpLogRecord[]): ExportOutcome | Saturated;
}

/** Which OTLP export a request body is: `ExportTraceServiceRequest` or `ExportLogsServiceRequest`. */
export type OtlpSignal = 'traces' | 'logs';

/** Decodes one `ExportTraceServiceRequest` body; throws with a message naming the offset on bad input. */
export type RequestDecoder = (body: Uint8Array, encoding: 'protobuf' | 'json') => OtlpResourceSpans[];

/** A request body that does not decode as an `ExportTraceServiceRequest` (HTTP 400 / INVALID_ARGUMENT). */
export interface Undecodable {
  undecodable: string;
}

/** What the receivers do with a request body: decode it and accept its spans, or say why not. */
export interface BodyHandler {
  /** As {@link ExportHandler.saturation}: asked before the body is read. */
  saturation(): Saturated | null;
  isSaturated(): boolean;
  waitForCapacity(timeoutMs: number): Promise<void>;
  /**
   * Decodes `body` and accepts its spans (the receivers own `body` no longer: it may be moved).
   * `waitMs`: when the queues turn out to be full only once the body is read (another thread saw them
   * with room), how long the body may wait for room before it is refused; 0 refuses at once.
   * `signal`: what the body is (default `traces`).
   */
  acceptBody(
    body: Buffer,
    encoding: 'protobuf' | 'json',
    waitMs?: number,
    signal?: OtlpSignal,
  ): ExportOutcome | Saturated | Undecodable | Promise<ExportOutcome | Saturated | Undecodable>;
}

/** The read side of the live state, served over HTTP; answers may come later (from another thread). */
export interface LiveReadApi {
  /** The live summary; `omitTaskValues`: without its `task_metric_values` key. */
  summaryJson(options?: { omitTaskValues?: boolean }): unknown;
  trialJson(trialId: string): unknown;
  metricsText(): string | Promise<string>;
  /** Subscribe to score events; returns an unsubscribe function. */
  onEvent(listener: (event: { type: string; data: unknown }) => void): () => void;
  healthy(): boolean;
  /** Why the run's outputs are incomplete so far (a failed sink, unscored trials), or null. */
  problem(): string | null;
}
