import { decodeOtlpProtobuf } from './decode-otlp-protobuf.js';
import { jsonUtf8Issues } from './json-utf8-issues.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { otlpJsonToRequest } from './otlp-json-to-request.js';
import type { OtlpPayload } from './otlp-payload-splitter.js';
import type { OtlpExportRequest } from './otlp-types.js';
import { parseLosslessJson } from './parse-lossless-json.js';

/**
 * Decodes one payload cut out of an OTLP file. Errors are `OtlpDecodeError`s whose `offset` is the
 * absolute byte offset in the file (payload offset + position inside it) and whose `line` is the
 * payload's line for JSON.
 *
 * @example
 * decodeOtlpPayload({ kind: 'json', text: '{"resourceSpans":[]}', line: 1, offset: 0 }); // { resourceSpans: [], ... }
 */
export function decodeOtlpPayload(payload: OtlpPayload): OtlpExportRequest {
  if (payload.kind === 'protobuf') {
    try {
      const request = decodeOtlpProtobuf(payload.bytes, { checkValues: true, signal: 'auto' });
      if (request.issues === undefined) return request;
      const base = payload.bodyOffset;
      const issues = request.issues.map((i) => ({ ...i, offset: base + (i.offset ?? 0) }));
      return { ...request, issues };
    } catch (error) {
      if (!(error instanceof OtlpDecodeError)) throw error;
      throw inFile(error, payload);
    }
  }
  let doc: unknown;
  try {
    doc = parseLosslessJson(payload.text);
  } catch (error) {
    const pos = /position (\d+)/.exec((error as Error).message)?.[1];
    const offset =
      pos === undefined
        ? payload.offset
        : payload.offset + Buffer.byteLength(payload.text.slice(0, Number(pos)));
    throw new OtlpDecodeError(`invalid JSON: ${(error as Error).message}`, {
      line: payload.line,
      offset,
    });
  }
  try {
    const request = otlpJsonToRequest(doc);
    if (payload.invalidUtf8 === undefined) return request;
    const issues = [...(request.issues ?? []), ...jsonUtf8Issues(request, doc, payload.invalidUtf8)];
    return { ...request, issues };
  } catch (error) {
    if (!(error instanceof OtlpDecodeError)) throw error;
    throw new OtlpDecodeError(error.message, {
      line: payload.line,
      offset: payload.offset,
      field: error.field,
    });
  }
}

/**
 * A decode error of `payload` with its offset (and the offset in its message) made absolute in the
 * file: for one raised while the payload was decoded, or later, by a part of it decoded when first
 * read. JSON payloads are decoded whole, so their errors are already in place.
 *
 * @example
 * throw inFile(error, payload); // "… at byte 1048596 …" for byte 20 of a frame at byte 1048572
 */
export function inFile(error: OtlpDecodeError, payload: OtlpPayload): OtlpDecodeError {
  if (payload.kind !== 'protobuf') return error;
  const offset = payload.bodyOffset + (error.offset ?? 0);
  return new OtlpDecodeError(error.message.replace(/at byte \d+/, `at byte ${offset}`), {
    offset,
    field: error.field,
  });
}
