import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { decodeOtlpPayload } from './decode-otlp-payload.js';
import { otlpFileLayout } from './otlp-file-layout.js';
import { OtlpPayloadSplitter } from './otlp-payload-splitter.js';
import type { OtlpExportRequest } from './otlp-types.js';

/**
 * Reads a whole OTLP file at once (`.json`, `.jsonl`, `.pb`/`.binpb` single or framed, gzip
 * detected by its magic bytes) into its export requests. For evidence handles over one trial's trace;
 * large dumps go through the streaming `fromOtlpFiles` instead. Errors: `OtlpDecodeError` with offset
 * or line (prefixed with the file path).
 *
 * @example
 * const requests = readOtlpFileSync('traces/relay.jsonl');
 */
export function readOtlpFileSync(path: string): OtlpExportRequest[] {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const splitter = new OtlpPayloadSplitter(otlpFileLayout(path));
  try {
    return [...splitter.push(bytes), ...splitter.end()].map(decodeOtlpPayload);
  } catch (error) {
    if (error instanceof Error) error.message = `${path}: ${error.message}`;
    throw error;
  }
}
