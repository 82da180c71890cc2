/**
 * Posts `count` copies of a gzip-encoded OTLP/protobuf body to `url` at once and resolves with each
 * answer's status, in request order (the receiver attack of `serve-bombs` and its robustness test).
 *
 * @example
 * const statuses = await sendGzipBombs('http://127.0.0.1:4318/v1/traces', gzipSync(Buffer.alloc(64 << 20)), 40);
 */
export function sendGzipBombs(url: string, bomb: Buffer, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
        body: bomb,
      }).then((r) => r.status),
    ),
  );
}
