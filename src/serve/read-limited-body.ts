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
 * The body bytes, read with stream events (no async iterator): a body in one chunk is that chunk,
 * a longer one is copied into one buffer of its declared length (or concatenated without one);
 * 413 past `max`.
 */
function readRaw(req: IncomingMessage, max: number, declared: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let whole: Buffer | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer): void => {
      if (failed) return;
      size += chunk.length;
      if (size > max || (declared >= 0 && size > declared)) {
        failed = true;
        reject(
          size > max
            ? new BodyReadError(`request body exceeds the limit of ${max} bytes`, 413)
            : new BodyReadError(`request body is longer than its Content-Length ${declared}`, 400),
        );
        return;
      }
      // a body that comes in one chunk is used as it is; else copied into one buffer of its length
      if (chunks.length === 0 && whole === null) chunks.push(chunk);
      else {
        if (whole === null && declared >= 0) {
          whole = Buffer.allocUnsafe(declared);
          chunks[0]!.copy(whole, 0);
          chunks.length = 0;
        }
        if (whole !== null) chunk.copy(whole, size - chunk.length);
        else chunks.push(chunk);
      }
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
      if (declared >= 0 && size !== declared) {
        reject(new BodyReadError(`request body ended after ${size} of ${declared} bytes`, 400));
        return;
      }
      resolve(whole ?? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
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
