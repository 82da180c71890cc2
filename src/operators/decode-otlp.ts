import { type OperatorFunction, map } from 'rxjs';
import { decodeOtlpPayload } from '../evidence/otlp/decode-otlp-payload.js';
import { OtlpDecodeError } from '../evidence/otlp/otlp-decode-error.js';
import type { OtlpPayloadItem, OtlpRequestItem } from '../evidence/otlp/otlp-stream-types.js';
import { InputError } from '../sources/input-error.js';

/**
 * Decodes each OTLP payload (a JSON document or line, a protobuf request or frame) into an export
 * request with the fast lazy decoder (see `decodeOtlpItem`). A payload that does not decode errors the
 * stream with an `InputError` naming the file and the line (JSON) or byte offset (protobuf); upstream
 * errors pass through untouched.
 *
 * @example
 * from(readOtlpPayloads('dump.jsonl')).pipe(decodeOtlp()).subscribe((r) => console.log(r.request.resourceSpans.length));
 */
export function decodeOtlp(): OperatorFunction<OtlpPayloadItem, OtlpRequestItem> {
  return (source) => source.pipe(map(decodeOtlpItem));
}

/**
 * Decodes one OTLP payload (a JSON document or line, a protobuf request or frame) into an export
 * request with the fast lazy decoder. A payload that does not decode throws an `InputError` naming the
 * file and the line (JSON) or byte offset (protobuf).
 *
 * @example
 * for await (const batch of readOtlpPayloadBatches('dump.binpb')) for (const p of batch) grouper.push(decodeOtlpItem(p));
 */
export function decodeOtlpItem(item: OtlpPayloadItem): OtlpRequestItem {
  const p = item.payload;
  try {
    return {
      file: item.file,
      request: decodeOtlpPayload(p),
      offset: p.offset,
      line: p.kind === 'json' ? p.line : null,
      bytesRead: item.bytesRead,
    };
  } catch (error) {
    if (!(error instanceof OtlpDecodeError)) throw error;
    throw new InputError(error.message, {
      file: item.file,
      line: error.line,
      offset: error.line === null ? error.offset : null,
      field: error.field,
    });
  }
}
