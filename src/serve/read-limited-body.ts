import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';

const gunzipAsync = promisify(gunzip);

/** Why a request body could not be read; `status` is the HTTP status to answer with. */
export class BodyReadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415,
  ) {
    super(message);
    this.name = 'BodyReadError';
  }
}

export interface BodyLimits {
  /** Largest accepted body on the wire, in bytes. */
  maxBodyBytes: number;
  /** Largest accepted body after gzip decompression, in bytes (a gzip bomb is refused, not inflated). */
  maxDecompressedBytes: number;
}

/**
 * Reads a request body up to `maxBodyBytes` (413 past it, without buffering the rest) and inflates
 * `Content-Encoding: gzip` bodies up to `maxDecompressedBytes` (413 past it: inflation stops there).
 *
 * @example
 * const body = await readLimitedBody(req, { maxBodyBytes: 8 << 20, maxDecompressedBytes: 64 << 20 });
 */
export async function readLimitedBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    req.resume();
    throw new BodyReadError(
      `request body of ${declared} bytes exceeds the limit of ${limits.maxBodyBytes}`,
      413,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBodyBytes) {
      req.resume();
      throw new BodyReadError(`request body exceeds the limit of ${limits.maxBodyBytes} bytes`, 413);
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks, size);
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .toLowerCase()
    .trim();
  if (encoding === 'identity' || encoding === '') return raw;
  if (encoding !== 'gzip') throw new BodyReadError(`unsupported Content-Encoding '${encoding}'`, 415);
  try {
    return await gunzipAsync(raw, { maxOutputLength: limits.maxDecompressedBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new BodyReadError(
        `decompressed request body exceeds the limit of ${limits.maxDecompressedBytes} bytes`,
        413,
      );
    }
    throw new BodyReadError(`gzip body does not decompress: ${(error as Error).message}`, 400);
  }
}
