// Preloaded into the server of bench/serve-bombs.bench.ts (`node --expose-gc --import`): on SIGUSR2
// it prints the process's memory as Node accounts it (`memory-probe before-gc …`), forces a full
// garbage collection, and prints it again (`memory-probe after-gc …`): what the JavaScript heap and
// the buffers hold, against the resident size the allocator keeps.
import process from 'node:process';
import { setTimeout } from 'node:timers';

const mib = (n) => (n / (1 << 20)).toFixed(0);
const line = (label) => {
  const m = process.memoryUsage();
  process.stderr.write(
    `memory-probe ${label} rss ${mib(m.rss)} heapUsed ${mib(m.heapUsed)} heapTotal ${mib(m.heapTotal)} ` +
      `external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)}\n`,
  );
};
process.on('SIGUSR2', () => {
  line('before-gc');
  globalThis.gc?.();
  globalThis.gc?.();
  setTimeout(() => line('after-gc'), 500);
});
