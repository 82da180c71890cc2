import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/serve/body-budget.js';
import { BodyReadError, readLimitedBody } from '../../src/serve/read-limited-body.js';

// Threat: memory the allocator keeps after a burst of gzip bodies. The inflater writes into large
// output buffers and feeds the compressed body a slice at a time; what it returns must still be the
// body, byte for byte, whatever its size and compression ratio, and the budget must come back to 0.
const budget = new BodyBudget(256 << 20);
let port = 0;
const server = createServer((req: IncomingMessage, res) => {
  readLimitedBody(req, { maxBodyBytes: 64 << 20, maxDecompressedBytes: 96 << 20 }, budget).then(
    (body) => {
      budget.give(body.length);
      res.end(`ok ${body.length} ${body.subarray(0, 16).toString('hex')} ${checksum(body)}`);
    },
    (error: BodyReadError) => res.end(`${error.status} ${error.message}`),
  );
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function checksum(bytes: Buffer): number {
  let a = 7;
  for (let i = 0; i < bytes.length; i += 1) a = (a * 31 + (bytes[i] as number)) % 1_000_003;
  return a;
}

function post(body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', headers: { 'content-encoding': 'gzip' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(gzipSync(body));
  });
}

const expected = (body: Buffer): string =>
  `ok ${body.length} ${body.subarray(0, 16).toString('hex')} ${checksum(body)}`;

describe('gzip bodies inflated into large output buffers', () => {
  it('a small body, an incompressible one and one of several output buffers come back whole', async () => {
    const small = Buffer.from('{"resourceSpans":[]}');
    const random = randomBytes(300 << 10);
    // zeros (a ratio over 64: fed 1 KiB at a time), then random bytes (the slices grow), past 40 MiB
    const mixed = Buffer.concat([Buffer.alloc(30 << 20), randomBytes(1 << 20), Buffer.alloc(15 << 20, 7)]);
    for (const body of [small, random, mixed]) expect(await post(body)).toBe(expected(body));
    expect(budget.usedBytes).toBe(0);
  }, 60_000);

  it('a bomb is still refused at the limit, and its bytes are given back', async () => {
    expect(await post(Buffer.alloc(100 << 20))).toBe(
      `413 decompressed request body exceeds the limit of ${96 << 20} bytes`,
    );
    expect(budget.usedBytes).toBe(0);
  }, 60_000);
});
