import type { IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import { BodyBudget } from './body-budget.js';

/** Why a request body could not be read; `status` is the HTTP status to answer with. */
export class BodyReadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 | 429,
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

const UNLIMITED = new BodyBudget(Number.MAX_SAFE_INTEGER);

/**
 * Reads a request body up to `maxBodyBytes` (413 past it, without buffering the rest) and inflates
 * `Content-Encoding: gzip` bodies, as they arrive, up to `maxDecompressedBytes` (413 past it:
 * inflation stops there). Every byte held is taken from `budget` as it comes (the raw bytes are
 * given back once inflated); when the budget has no room the body is refused with 429. On success
 * exactly the returned body's length stays taken: the caller gives it back when it is done with it.
 *
 * @example
 * const body = await readLimitedBody(req, { maxBodyBytes: 8 << 20, maxDecompressedBytes: 64 << 20 }, budget);
 * try { handle(body); } finally { budget.give(body.length); }
 */
export async function readLimitedBody(
  req: IncomingMessage,
  limits: BodyLimits,
  budget: BodyBudget = UNLIMITED,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    req.resume();
    throw new BodyReadError(
      `request body of ${declared} bytes exceeds the limit of ${limits.maxBodyBytes}`,
      413,
    );
  }
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .toLowerCase()
    .trim();
  if (encoding !== 'identity' && encoding !== '' && encoding !== 'gzip') {
    req.resume();
    throw new BodyReadError(`unsupported Content-Encoding '${encoding}'`, 415);
  }
  const raw = await readRaw(req, limits.maxBodyBytes, Number.isSafeInteger(declared) ? declared : -1, budget);
  if (encoding !== 'gzip') return raw;
  try {
    return await inflate(raw, limits.maxDecompressedBytes, budget);
  } finally {
    budget.give(raw.length);
  }
}

/**
 * Output buffers of the inflater: larger than glibc's largest dynamic mmap threshold (32 MiB), so
 * each is mapped on its own and unmapped when freed (nothing stays in the allocator's heap after a
 * burst), and only the pages written become resident. One such buffer is filled across writes.
 */
const INFLATE_OUTPUT_BYTES = 40 << 20;
/** Compressed bytes per write: at first, and at most (the ratio seen so far decides). */
const INFLATE_FIRST_SLICE = 1024;
const INFLATE_MAX_SLICE = 64 << 10;

/**
 * Inflates `raw` into large output buffers (`INFLATE_OUTPUT_BYTES`), feeding it a slice at a time so
 * that little is written before the budget is asked: 1 KiB of input while the output is more than 64
 * times larger (a bomb), growing to 64 KiB for ordinary data. Each piece is taken from `budget`; 413
 * past `max`, 429 past the budget. The body returned is a copy of its own length.
 */
function inflate(raw: Buffer, max: number, budget: BodyBudget): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const gunzip = createGunzip({ chunkSize: INFLATE_OUTPUT_BYTES });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: BodyReadError): void => {
      failed = true;
      budget.give(size);
      chunks.length = 0;
      gunzip.destroy();
      reject(error);
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (failed) return;
      if (size + chunk.length > max) {
        fail(new BodyReadError(`decompressed request body exceeds the limit of ${max} bytes`, 413));
        return;
      }
      if (!budget.take(chunk.length)) {
        fail(new BodyReadError(budget.refusal(), 429));
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    gunzip.on('error', (error) => {
      if (!failed) fail(new BodyReadError(`gzip body does not decompress: ${error.message}`, 400));
    });
    gunzip.on('end', () => {
      // a copy: the pieces are views of the large output buffers, which are let go here
      if (!failed) resolve(Buffer.concat(chunks, size));
    });
    let at = 0;
    let slice = INFLATE_FIRST_SLICE;
    const feed = (): void => {
      if (failed) return;
      if (at >= raw.length) {
        gunzip.end();
        return;
      }
      const from = at;
      const before = size;
      at = Math.min(raw.length, at + slice);
      gunzip.write(raw.subarray(from, at), () => {
        slice =
          (size - before) / (at - from) > 64 ? INFLATE_FIRST_SLICE : Math.min(slice * 4, INFLATE_MAX_SLICE);
        feed();
      });
    };
    feed();
  });
}

/**
 * The body bytes, read with stream events (no async iterator), each chunk taken from `budget`: a body
 * in one chunk is that chunk, a longer one is copied into one buffer of its declared length (or
 * concatenated into one without it); 413 past `max`, 429 when the budget has no room.
 */
function readRaw(req: IncomingMessage, max: number, declared: number, budget: BodyBudget): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let whole: Buffer | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const refuse = (error: BodyReadError): void => {
      failed = true;
      budget.give(size);
      chunks.length = 0;
      whole = null;
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      if (failed) return;
      if (size + chunk.length > max) {
        refuse(new BodyReadError(`request body exceeds the limit of ${max} bytes`, 413));
        return;
      }
      if (declared >= 0 && size + chunk.length > declared) {
        refuse(new BodyReadError(`request body is longer than its Content-Length ${declared}`, 400));
        return;
      }
      if (!budget.take(chunk.length)) {
        refuse(new BodyReadError(budget.refusal(), 429));
        return;
      }
      size += chunk.length;
      // a body that comes in one chunk is used as it is; else copied into one buffer of its length
      // as the chunks arrive: a chunk kept until the body's end outlives young collections, and
      // its memory is then freed only by a full one
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
        refuse(new BodyReadError(`request body ended after ${size} of ${declared} bytes`, 400));
        return;
      }
      resolve(whole ?? (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    };
    const onError = (error: Error): void => {
      cleanup();
      if (failed) return;
      failed = true;
      budget.give(size);
      whole = null;
      reject(error);
    };
    const onClose = (): void => onError(new Error('request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
