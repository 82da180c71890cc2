import { createReadStream, type ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
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
  let gzip: boolean;
  try {
    gzip = await isGzipFile(path);
  } catch (error) {
    throw new InputError(`cannot open: ${(error as Error).message}`, { file: path });
  }
  // a gunzip stream hands out fresh chunks; the file's own are read into one buffer
  const splitter = new OtlpPayloadSplitter(options.layout ?? otlpFileLayout(path), { reusedChunks: !gzip });
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const items = (payloads: OtlpPayload[]): OtlpPayloadItem[] => {
    const bytesRead = splitter.bytesRead;
    return payloads.map((payload) => ({ file: path, payload, bytesRead }));
  };
  const raw = gzip ? createReadStream(path, { highWaterMark: chunkBytes }) : null;
  try {
    for await (const chunk of raw === null ? readInto(path, chunkBytes) : gunzipped(raw)) {
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
    raw?.destroy();
  }
}

function gunzipped(raw: ReadStream): AsyncIterable<Buffer> {
  const stream = raw.pipe(createGunzip());
  raw.on('error', (e) => stream.destroy(e));
  return stream;
}

/**
 * The file's bytes, read chunk after chunk into one buffer: each chunk is valid until the next is
 * asked for (reading into fresh memory every time cost ten times the CPU of the reads themselves).
 */
async function* readInto(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafeSlow(chunkBytes);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}
