import { createServer } from 'node:net';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCliProcess } from '../cli/serve-process.js';

describe('serve on a busy port', () => {
  for (const flag of ['--http', '--grpc']) {
    it(`exits 2 with one line when ${flag}'s port is taken, touching neither store nor bundle`, async () => {
      const blocker = createServer();
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
      const port = (blocker.address() as { port: number }).port;
      const dir = await mkdtemp(join(tmpdir(), 'evalstream-busy-'));
      try {
        const other = flag === '--http' ? ['--grpc', '127.0.0.1:0'] : ['--http', '127.0.0.1:0'];
        const serve = await startCliProcess(
          [
            'serve',
            flag,
            `127.0.0.1:${port}`,
            ...other,
            '--out',
            join(dir, 'b'),
            '--db',
            join(dir, 's.duckdb'),
          ],
          { ready: '\n' },
        );
        const code = await Promise.race([
          serve.exited,
          new Promise((r) => setTimeout(() => r('still running'), 30_000)),
        ]);
        if (code === 'still running') serve.child.kill('SIGKILL');
        expect(code, serve.log()).toBe(2);
        const lines = serve.log().trim().split('\n');
        expect(lines, serve.log()).toEqual([
          `evalstream: ${flag} 127.0.0.1:${port}: the address is in use (another process listens there)`,
        ]);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        blocker.close();
      }
    });
  }
});
