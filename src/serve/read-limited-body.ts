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
  const raw = await readRaw(req, limits.maxBodyBytes, Number.isSafeInteger(declared) ? declared : -1);
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

/**
 * The body bytes, read with stream events (no async iterator): into one buffer of the declared
 * length when there is one (no concatenation), else chunk by chunk; 413 past `max`.
 */
function readRaw(req: IncomingMessage, max: number, declared: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const whole = declared >= 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer): void => {
      if (failed) return;
      size += chunk.length;
      if (size > max || (whole !== null && size > whole.length)) {
        failed = true;
        reject(
          size > max
            ? new BodyReadError(`request body exceeds the limit of ${max} bytes`, 413)
            : new BodyReadError(`request body is longer than its Content-Length ${declared}`, 400),
        );
        return;
      }
      if (whole !== null) chunk.copy(whole, size - chunk.length);
      else chunks.push(chunk);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      // keep draining what is left of a refused body
      if (failed) req.resume();
    };
    const onEnd = (): void => {
      cleanup();
      if (failed) return;
      if (whole !== null && size !== whole.length) {
        reject(new BodyReadError(`request body ended after ${size} of ${declared} bytes`, 400));
        return;
      }
      resolve(whole ?? Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      if (!failed) reject(error);
      failed = true;
    };
    const onClose = (): void => onError(new Error('request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
