import type { OtlpExportRequest } from '../evidence/otlp/otlp-types.js';
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
   * The one way a decoded request (spans and/or log records, from any transport) enters the live
   * path: accepted (some spans perhaps refused, said in the outcome) or refused whole when saturated.
   * `reload` decodes the same request again (its spans may then be dropped and read back later).
   */
  acceptRequest(request: OtlpExportRequest, reload?: () => OtlpExportRequest): ExportOutcome | Saturated;
}

/** Which OTLP export a request body is: `ExportTraceServiceRequest` or `ExportLogsServiceRequest`. */
export type OtlpSignal = 'traces' | 'logs';

/** A request body that does not decode as its export request (HTTP 400 / INVALID_ARGUMENT). */
export interface Undecodable {
  /** Why, naming the request (`request does not decode as ExportLogsServiceRequest: …`). */
  undecodable: string;
}

/** What the receivers do with a request body: decode it and accept its spans, or say why not. */
export interface BodyHandler {
  /** As {@link ExportHandler.saturation}: asked before the body is read. */
  saturation(): Saturated | null;
  isSaturated(): boolean;
  waitForCapacity(timeoutMs: number): Promise<void>;
  /**
   * Decodes `body` as `signal`'s export request (default `traces`) and accepts it (the receivers own
   * `body` no longer: decoded spans and log records read it).
   */
  acceptBody(
    body: Buffer,
    encoding: 'protobuf' | 'json',
    signal?: OtlpSignal,
  ): ExportOutcome | Saturated | Undecodable;
}

/** The read side of the live state, served over HTTP. */
export interface LiveReadApi {
  /** The live summary; `omitTaskValues`: without its `task_metric_values` key. */
  summaryJson(options?: { omitTaskValues?: boolean }): unknown;
  trialJson(trialId: string): unknown;
  metricsText(): string;
  /** Subscribe to score events; returns an unsubscribe function. */
  onEvent(listener: (event: { type: string; data: unknown }) => void): () => void;
  /** Why the run's outputs are incomplete so far (a failed sink, unscored trials), or null. */
  problem(): string | null;
}
