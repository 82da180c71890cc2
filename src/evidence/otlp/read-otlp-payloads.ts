import type { OtlpFileLayout } from './otlp-payload-splitter.js';
import type { OtlpPayloadItem } from './otlp-stream-types.js';
import { readOtlpPayloadBatches } from './read-otlp-payload-batches.js';

/** Options of `readOtlpPayloads`. */
export interface ReadOtlpPayloadsOptions {
  /** Override the layout the file name implies. */
  layout?: OtlpFileLayout;
  /** Read size; memory held is about one chunk plus the unfinished payload. Default 128 KiB. */
  chunkBytes?: number;
}

/**
 * Streams an OTLP file as encoded payloads (JSON lines, a JSON document, a protobuf request or
 * length-prefixed frames), reading chunk by chunk and gunzipping on the fly when the file starts with
 * the gzip magic bytes. Never holds more than one chunk plus the payload being cut (a single-request
 * `.json`/`.pb` file is one payload). Errors are `InputError`s naming the file and the byte offset
 * (uncompressed) or line; payloads before the problem have been yielded. (`readOtlpPayloadBatches`
 * gives the same payloads as one array per chunk read.)
 *
 * @example
 * for await (const item of readOtlpPayloads('dump.binpb')) console.log(item.payload.offset);
 */
export async function* readOtlpPayloads(
  path: string,
  options: ReadOtlpPayloadsOptions = {},
): AsyncGenerator<OtlpPayloadItem> {
  for await (const batch of readOtlpPayloadBatches(path, options)) yield* batch;
}
