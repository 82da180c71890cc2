import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyReadError, readLimitedBody } from '../../src/serve/read-limited-body.js';

let port = 0;
const server = createServer((req: IncomingMessage, res) => {
  readLimitedBody(req, { maxBodyBytes: 1024, maxDecompressedBytes: 4096 }).then(
    (body) => res.end(`ok ${body.length} ${body.reduce((a, b) => (a * 31 + b) % 1_000_003, 7)}`),
    (error: BodyReadError) => res.end(`${error.status} ${error.message}`),
  );
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function post(body: Buffer, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function hash(bytes: Buffer): number {
  return bytes.reduce((a, b) => (a * 31 + b) % 1_000_003, 7);
}

/** Sends the body in several writes, with a Content-Length or chunked (no length). */
function postInParts(parts: Buffer[], withLength: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const total = parts.reduce((n, p) => n + p.length, 0);
    const headers = withLength ? { 'content-length': String(total) } : {};
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    let i = 0;
    const next = (): void => {
      if (i === parts.length) {
        req.end();
        return;
      }
      req.write(parts[i++]!);
      setTimeout(next, 5);
    };
    req.flushHeaders();
    next();
  });
}

describe('readLimitedBody', () => {
  it('assembles bodies that arrive in several chunks, with and without Content-Length', async () => {
    const parts = [Buffer.from('first part '), Buffer.from('second part '), Buffer.from('third')];
    const whole = Buffer.concat(parts);
    for (const withLength of [true, false]) {
      expect(await postInParts(parts, withLength)).toBe(`ok ${whole.length} ${hash(whole)}`);
    }
    expect(await postInParts([Buffer.alloc(600, 1), Buffer.alloc(600, 2)], false)).toMatch(
      /^413 request body exceeds the limit of 1024 bytes/,
    );
  });

  it('returns plain and gzip bodies', async () => {
    expect(await post(Buffer.alloc(100))).toBe(`ok 100 ${hash(Buffer.alloc(100))}`);
    expect(await post(gzipSync(Buffer.alloc(3000)), { 'content-encoding': 'gzip' })).toBe(
      `ok 3000 ${hash(Buffer.alloc(3000))}`,
    );
  });
  it('answers 413 over the wire limit', async () => {
    expect(await post(Buffer.alloc(2000))).toMatch(
      /^413 request body of 2000 bytes exceeds the limit of 1024/,
    );
  });
  it('refuses a gzip bomb without inflating it past the limit', async () => {
    const small = gzipSync(Buffer.alloc(100_000));
    expect(small.length).toBeLessThan(1024);
    expect(await post(small, { 'content-encoding': 'gzip' })).toMatch(
      /^413 decompressed request body exceeds the limit of 4096/,
    );
  });
  it('answers 400 for a body that is not gzip and 415 for other encodings', async () => {
    expect(await post(Buffer.from('not gzip'), { 'content-encoding': 'gzip' })).toMatch(
      /^400 gzip body does not decompress/,
    );
    expect(await post(Buffer.from('x'), { 'content-encoding': 'br' })).toMatch(
      /^415 unsupported Content-Encoding 'br'/,
    );
  });
});
