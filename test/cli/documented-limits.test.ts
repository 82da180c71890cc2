import * as grpc from '@grpc/grpc-js';
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registerCommands } from '../../src/cli/register-commands.js';
import { startCliProcess } from './serve-process.js';

/** An `ExportTraceServiceRequest` of `size` bytes: one unknown field (15, bytes), which decoders skip. */
function paddedRequest(size: number): Buffer {
  const payload = size - 3; // tag byte + two length bytes
  return Buffer.concat([
    Buffer.from([0x7a, (payload & 0x7f) | 0x80, payload >> 7]),
    Buffer.alloc(payload, 0x61),
  ]);
}

function exportCode(address: string, body: Buffer): Promise<number> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise<number>((resolve) => {
    client.makeUnaryRequest(
      '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      (error) => {
        client.close();
        resolve(error?.code ?? grpc.status.OK);
      },
    );
  });
}

async function serveDefault(flag: string): Promise<number> {
  const program = new Command('evalstream');
  await registerCommands(program, ['serve']);
  const option = program.commands[0]?.options.find((o) => o.long === flag);
  return option?.defaultValue as number;
}

describe('serve request limits, as documented', () => {
  it('an OTLP/gRPC message is capped by --max-decompressed-bytes, not --max-body-bytes', async () => {
    const serve = await startCliProcess([
      'serve',
      '--http',
      '127.0.0.1:0',
      '--grpc',
      '127.0.0.1:0',
      '--max-body-bytes',
      '1024',
      '--max-decompressed-bytes',
      '4096',
    ]);
    try {
      const port = /OTLP\/gRPC on [\d.]+:(\d+)/.exec(serve.log())?.[1];
      expect(port, serve.log()).toBeDefined();
      const address = `127.0.0.1:${port}`;
      expect(await exportCode(address, paddedRequest(2000))).toBe(grpc.status.OK);
      expect(await exportCode(address, paddedRequest(4096))).toBe(grpc.status.OK);
      expect(await exportCode(address, paddedRequest(4100))).toBe(grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  }, 60_000);

  it('README states the real defaults of both limits', async () => {
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
    const mib = (n: number): string => `${n / 1048576} MiB`;
    const body = mib(await serveDefault('--max-body-bytes'));
    const inflated = mib(await serveDefault('--max-decompressed-bytes'));
    expect(readme).toContain(`at most \`--max-body-bytes\` on the wire (default ${body})`);
    expect(readme).toContain(`\`--max-decompressed-bytes\` after gzip (default ${inflated})`);
    expect(readme).toContain(
      `an OTLP/gRPC message may be at most \`--max-decompressed-bytes\` (default ${inflated})`,
    );
  });
});
