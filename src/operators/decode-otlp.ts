import { map, type OperatorFunction } from 'rxjs';
import type { OtlpPayloadItem, OtlpRequestItem } from '../evidence/otlp/otlp-stream-types.js';
import { decodeOtlpItem } from './decode-otlp-item.js';

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
