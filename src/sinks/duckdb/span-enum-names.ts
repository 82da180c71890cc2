const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS_CODES = ['unset', 'ok', 'error'];

/**
 * The names the `spans` table stores for OTLP's span kind and status code enums (an unknown number
 * as its decimal text). One definition for the DuckDB sink (`spanRowCells`) and the live store's
 * binary batches (`SpanBatchBuilder`).
 *
 * @example
 * spanEnumNames.kind(3); // 'client'
 * spanEnumNames.status(2); // 'error'
 */
export const spanEnumNames = {
  kind: (kind: number): string => SPAN_KINDS[kind] ?? String(kind),
  status: (code: number): string => STATUS_CODES[code] ?? String(code),
} as const;
