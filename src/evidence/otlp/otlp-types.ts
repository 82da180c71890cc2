/*
 * The OTLP trace data model as evalstream reads it, shared by every decode path (fast protobuf,
 * protobufjs reflection, OTLP/JSON). Ids are lowercase hex ('' when absent), 64-bit times are bigint
 * nanoseconds, enums are their integer values. Implementations may decode lazily: reading a field is
 * what decodes it, so code that never asks for a large attribute never pays for it.
 */

/** An attribute value (`AnyValue`); `empty` is an AnyValue with no field set. */
export type OtlpAnyValue =
  | OtlpStringValue
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'double'; readonly value: number }
  | { readonly type: 'bytes'; readonly value: Uint8Array }
  | { readonly type: 'array'; readonly values: readonly OtlpAnyValue[] }
  | { readonly type: 'kvlist'; readonly values: readonly OtlpKeyValue[] }
  | { readonly type: 'empty' };

/**
 * A string value. `byteLength` is its UTF-8 size; `value` may be decoded on first read from a slice
 * of the request buffer (large message attributes stay bytes until a metric reads them).
 */
export interface OtlpStringValue {
  readonly type: 'string';
  readonly value: string;
  readonly byteLength: number;
}

export interface OtlpKeyValue {
  readonly key: string;
  readonly value: OtlpAnyValue;
}

/**
 * A span's, resource's, scope's, event's or log record's attributes. With duplicate keys (invalid
 * OTLP, "unpredictable" per spec) the last one wins.
 */
export interface OtlpAttributes {
  readonly size: number;
  keys(): string[];
  has(key: string): boolean;
  /** The value under `key`, decoded on demand. */
  get(key: string): OtlpAnyValue | undefined;
  /** The value under `key` if it is a string value. */
  getString(key: string): string | undefined;
  /** Every key/value in wire order. */
  entries(): OtlpKeyValue[];
  /** False when no value is an array or kvlist (nothing can nest), without decoding the values. */
  mayNest(): boolean;
}

export interface OtlpResource {
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
}

export interface OtlpScope {
  readonly name: string;
  readonly version: string;
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
}

export interface OtlpSpanEvent {
  readonly timeUnixNano: bigint;
  readonly name: string;
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
}

export interface OtlpSpanLink {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceState: string;
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
  readonly flags: number;
}

/** `code`: 0 UNSET, 1 OK, 2 ERROR. */
export interface OtlpStatus {
  readonly code: number;
  readonly message: string;
}

/**
 * One span with back-references to the resource and scope it was exported under (attribute lookups
 * with resource fallback need them). `kind`: 0 UNSPECIFIED, 1 INTERNAL, 2 SERVER, 3 CLIENT,
 * 4 PRODUCER, 5 CONSUMER. `parentSpanId` is '' for a root.
 */
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceState: string;
  readonly parentSpanId: string;
  readonly flags: number;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
  readonly events: readonly OtlpSpanEvent[];
  readonly droppedEventsCount: number;
  readonly links: readonly OtlpSpanLink[];
  readonly droppedLinksCount: number;
  readonly status: OtlpStatus;
  readonly resource: OtlpResource;
  readonly scope: OtlpScope;
}

export interface OtlpScopeSpans {
  readonly scope: OtlpScope;
  readonly spans: readonly OtlpSpan[];
  readonly schemaUrl: string;
}

export interface OtlpResourceSpans {
  readonly resource: OtlpResource;
  readonly scopeSpans: readonly OtlpScopeSpans[];
  readonly schemaUrl: string;
}

/**
 * A log record (`LogRecord` of an `ExportLogsServiceRequest`, or of `resourceLogs` written next to
 * `resourceSpans` in one OTLP/JSON document). GenAI instrumentations put message content in such
 * records (`gen_ai.choice`, `gen_ai.client.inference.operation.details`), evaluators their results
 * (`gen_ai.evaluation.result`). Ids are '' when not recorded. `severityNumber`: 0 UNSPECIFIED,
 * 1–4 TRACE, 5–8 DEBUG, 9–12 INFO, 13–16 WARN, 17–20 ERROR, 21–24 FATAL.
 */
export interface OtlpLogRecord {
  readonly traceId: string;
  readonly spanId: string;
  /** `time_unix_nano`, else `observed_time_unix_nano` when the event time was not recorded. */
  readonly timeUnixNano: bigint;
  readonly observedTimeUnixNano: bigint;
  readonly severityNumber: number;
  readonly severityText: string;
  /** `eventName`, else the `event.name` / `otel.event.name` attribute, else ''. */
  readonly eventName: string;
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number;
  readonly flags: number;
  readonly body: OtlpAnyValue;
  readonly resource: OtlpResource;
  readonly scope: OtlpScope;
}

/**
 * A problem the decoder went on past in one span's data (becomes a `TrialDiagnostic` of the span's
 * trial): a string that is not UTF-8 (read with U+FFFD in its place), an attribute value nested more
 * than `MAX_ANY_VALUE_DEPTH` levels (refused: read as empty). `offset` is the byte offset in the
 * payload (its line for JSON); `field` the JSON path, or the span field and attribute key.
 */
export interface OtlpSpanIssue {
  readonly code: 'invalid_utf8' | 'nesting_too_deep';
  readonly traceId: string;
  readonly spanId: string;
  readonly field: string;
  readonly message: string;
  readonly offset: number | null;
}

/**
 * One decoded export request: an `ExportTraceServiceRequest` (spans), an `ExportLogsServiceRequest`
 * (log records), or an OTLP/JSON document holding both.
 */
export interface OtlpExportRequest {
  readonly resourceSpans: readonly OtlpResourceSpans[];
  readonly logRecords: readonly OtlpLogRecord[];
  /** What the decoder went on past, span by span; absent when nothing. */
  readonly issues?: readonly OtlpSpanIssue[];
}
