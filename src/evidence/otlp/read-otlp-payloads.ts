import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { InputError } from '../../sources/input-error.js';
import { otlpFileLayout } from './otlp-file-layout.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { OtlpPayloadSplitter, type OtlpFileLayout } from './otlp-payload-splitter.js';
import type { OtlpPayloadItem } from './otlp-stream-types.js';

/** Options of `readOtlpPayloads`. */
export interface ReadOtlpPayloadsOptions {
  /** Override the layout the file name implies. */
  layout?: OtlpFileLayout;
  /** Read size; memory held is about one chunk plus the unfinished payload. Default 1 MiB. */
  chunkBytes?: number;
}

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * Streams an OTLP file as encoded payloads (JSON lines, a JSON document, a protobuf request or
 * length-prefixed frames), reading chunk by chunk and gunzipping on the fly when the file starts with
 * the gzip magic bytes. Never holds more than one chunk plus the payload being cut (a single-request
 * `.json`/`.pb` file is one payload). Errors are `InputError`s naming the file and the byte offset
 * (uncompressed) or line; payloads before the problem have been yielded.
 *
 * @example
 * for await (const item of readOtlpPayloads('dump.binpb')) console.log(item.payload.offset);
 */
export async function* readOtlpPayloads(
  path: string,
  options: ReadOtlpPayloadsOptions = {},
): AsyncGenerator<OtlpPayloadItem> {
  const splitter = new OtlpPayloadSplitter(options.layout ?? otlpFileLayout(path));
  let gzip: boolean;
  try {
    gzip = await isGzip(path);
  } catch (error) {
    throw new InputError(`cannot open: ${(error as Error).message}`, { file: path });
  }
  const raw = createReadStream(path, { highWaterMark: options.chunkBytes ?? 1 << 20 });
  const stream = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.on('error', (e) => stream.destroy(e));
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (const payload of splitter.push(chunk))
        yield { file: path, payload, bytesRead: splitter.bytesRead };
    }
    for (const payload of splitter.end()) yield { file: path, payload, bytesRead: splitter.bytesRead };
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
    const reason = gzip ? `gzip: ${(error as Error).message}` : (error as Error).message;
    throw new InputError(reason, { file: path, offset: splitter.bytesRead });
  } finally {
    raw.destroy();
  }
}
