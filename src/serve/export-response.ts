import protobuf from 'protobufjs';

/** The outcome of one export: how many spans were refused and why (OTLP partial success). */
export interface ExportOutcome {
  rejectedSpans: number;
  errorMessage: string;
}

/**
 * Encodes an `ExportTraceServiceResponse` as protobuf (an `ExportLogsServiceResponse` has the same
 * fields: `rejected_log_records` 1, `error_message` 2). `partial_success` (field 1) is left unset on
 * full success, as the OTLP spec asks.
 *
 * @example
 * encodeExportResponseProto({ rejectedSpans: 0, errorMessage: '' }); // empty buffer
 */
export function encodeExportResponseProto(outcome: ExportOutcome): Uint8Array {
  const writer = protobuf.Writer.create();
  if (outcome.rejectedSpans > 0 || outcome.errorMessage !== '') {
    writer.uint32((1 << 3) | 2).fork();
    if (outcome.rejectedSpans > 0) writer.uint32((1 << 3) | 0).int64(outcome.rejectedSpans);
    if (outcome.errorMessage !== '') writer.uint32((2 << 3) | 2).string(outcome.errorMessage);
    writer.ldelim();
  }
  return writer.finish();
}

/**
 * Encodes an `ExportTraceServiceResponse` as OTLP/JSON (int64 as a decimal string, lowerCamelCase);
 * with `rejectedKey` `rejectedLogRecords`, an `ExportLogsServiceResponse`.
 *
 * @example
 * encodeExportResponseJson({ rejectedSpans: 2, errorMessage: 'x' });
 * // '{"partialSuccess":{"rejectedSpans":"2","errorMessage":"x"}}'
 */
export function encodeExportResponseJson(
  outcome: ExportOutcome,
  rejectedKey: 'rejectedSpans' | 'rejectedLogRecords' = 'rejectedSpans',
): string {
  if (outcome.rejectedSpans === 0 && outcome.errorMessage === '') return '{}';
  const partialSuccess: Record<string, string> = {};
  if (outcome.rejectedSpans > 0) partialSuccess[rejectedKey] = String(outcome.rejectedSpans);
  if (outcome.errorMessage !== '') partialSuccess['errorMessage'] = outcome.errorMessage;
  return JSON.stringify({ partialSuccess });
}

/**
 * Encodes a `google.rpc.Status` (code 1, message 2) as protobuf, the body of an OTLP/HTTP failure.
 *
 * @example
 * encodeRpcStatusProto(3, 'bad request');
 */
export function encodeRpcStatusProto(code: number, message: string): Uint8Array {
  const writer = protobuf.Writer.create();
  if (code !== 0) writer.uint32((1 << 3) | 0).int32(code);
  if (message !== '') writer.uint32((2 << 3) | 2).string(message);
  return writer.finish();
}
