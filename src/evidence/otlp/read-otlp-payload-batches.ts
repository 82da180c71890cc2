import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { gzipErrorReason } from '../gzip-error-reason.js';
import { InputError } from '../../sources/input-error.js';
import { otlpFileLayout } from './otlp-file-layout.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { OtlpPayloadSplitter, type OtlpPayload } from './otlp-payload-splitter.js';
import type { OtlpPayloadItem } from './otlp-stream-types.js';
import type { ReadOtlpPayloadsOptions } from './read-otlp-payloads.js';
import { isGzipFile } from '../is-gzip-file.js';

/**
 * Bytes per read. Decoded spans keep byte ranges of the read they came from, so a read lives as long
 * as its last span, and its memory comes back only with a full collection: smaller reads hold less.
 */
const READ_BYTES = 1 << 17;

/**
 * `readOtlpPayloads` in batches: the payloads cut from each chunk read, as one array (chunks that
 * complete no payload yield nothing). Same reading, memory and error rules; one async step per chunk
 * instead of one per payload, which is what a stream of many small requests spends its time on.
 *
 * @example
 * for await (const batch of readOtlpPayloadBatches('dump.binpb')) console.log(batch.length);
 */
export async function* readOtlpPayloadBatches(
  path: string,
  options: ReadOtlpPayloadsOptions = {},
): AsyncGenerator<OtlpPayloadItem[]> {
  const splitter = new OtlpPayloadSplitter(options.layout ?? otlpFileLayout(path));
  let gzip: boolean;
  try {
    gzip = await isGzipFile(path);
  } catch (error) {
    throw new InputError(`cannot open: ${(error as Error).message}`, { file: path });
  }
  const raw = createReadStream(path, { highWaterMark: options.chunkBytes ?? READ_BYTES });
  const stream = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.on('error', (e) => stream.destroy(e));
  const items = (payloads: OtlpPayload[]): OtlpPayloadItem[] => {
    const bytesRead = splitter.bytesRead;
    return payloads.map((payload) => ({ file: path, payload, bytesRead }));
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const payloads = splitter.push(chunk);
      if (payloads.length > 0) yield items(payloads);
    }
    const last = splitter.end();
    if (last.length > 0) yield items(last);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof OtlpDecodeError) {
      throw new InputError(error.message, {
        file: path,
        offset: error.offset,
        line: error.line,
        field: error.field,
      });
    }
    const reason = gzip ? gzipErrorReason(error) : (error as Error).message;
    throw new InputError(reason, { file: path, offset: splitter.bytesRead });
  } finally {
    raw.destroy();
  }
}
