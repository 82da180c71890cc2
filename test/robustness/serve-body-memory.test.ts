import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/serve/body-budget.js';
import { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';
import type { BodyHandler, LiveReadApi } from '../../src/serve/serve-types.js';
import { sendGzipBombs } from '../../bench/send-gzip-bombs.js';

/** A budget that remembers the most it ever held. */
class WatchedBudget extends BodyBudget {
  peak = 0;
  override take(n: number): boolean {
    const ok = super.take(n);
    this.peak = Math.max(this.peak, this.usedBytes);
    return ok;
  }
}

const accepting: BodyHandler = {
  saturation: () => null,
  isSaturated: () => false,
  waitForCapacity: () => Promise.resolve(),
  acceptBody: () => ({ rejectedSpans: 0, errorMessage: '' }),
};
const api: LiveReadApi = {
  summaryJson: () => ({}),
  trialJson: () => undefined,
  metricsText: () => '',
  onEvent: () => () => undefined,
  problem: () => null,
};

const servers: OtlpHttpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.shutdown();
});

async function serve(budget: BodyBudget, requestTimeoutMs = 30_000): Promise<number> {
  const server = new OtlpHttpServer(
    {
      host: '127.0.0.1',
      port: 0,
      token: null,
      maxBodyBytes: 1 << 20,
      maxDecompressedBytes: 4 << 20,
      budget,
      requestTimeoutMs,
    },
    accepting,
    api,
  );
  servers.push(server);
  return (await server.start()).port;
}

describe('serve under concurrent memory abuse', () => {
  it('holds no more body bytes than its budget for 40 gzip bombs at once, and gives them all back', async () => {
    const budget = new WatchedBudget(8 << 20);
    const port = await serve(budget);
    // 64 MiB of zeros in ~64 kB: each would inflate past the 4 MiB per-body limit
    const bomb = gzipSync(Buffer.alloc(64 << 20));
    const answers = await sendGzipBombs(`http://127.0.0.1:${port}/v1/traces`, bomb, 40);
    for (const status of answers) expect([413, 429]).toContain(status);
    expect(budget.peak).toBeLessThanOrEqual(8 << 20);
    expect(budget.usedBytes).toBe(0);
    const ok = await fetch(`http://127.0.0.1:${port}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(1000)),
    });
    expect(ok.status).toBe(200);
    expect(budget.usedBytes).toBe(0);
  });

  it('answers 429 with Retry-After when the bodies in flight fill the budget', async () => {
    const budget = new BodyBudget(4 << 20);
    const port = await serve(budget);
    expect(budget.take(4 << 20)).toBe(true); // as if other requests held it all
    const res = await fetch(`http://127.0.0.1:${port}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"resourceSpans":[]}',
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    budget.give(4 << 20);
    expect(budget.usedBytes).toBe(0);
  });

  it('closes a request whose body trickles in past the request timeout (408) and frees what it held', async () => {
    const budget = new BodyBudget(4 << 20);
    const port = await serve(budget, 200);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /v1/traces HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-protobuf\r\ncontent-length: 100000\r\n\r\n',
        );
        socket.write(Buffer.alloc(1000));
      });
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(budget.usedBytes).toBe(0);
  });
});
