// Preloaded into the server of bench/serve-bombs.bench.ts (`node --expose-gc --import`): on SIGUSR2
// it prints the process's memory as Node accounts it (`memory-probe before-gc …`), forces a full
// garbage collection, and prints it again (`memory-probe after-gc …`): what the JavaScript heap and
// the buffers hold, against the resident size the allocator keeps. Before them it prints the same
// accounting at the moment the resident size was highest (`memory-probe at-peak …`, sampled every
// 20 ms): what was held when the peak was reached.
import process from 'node:process';
import { setInterval, setTimeout } from 'node:timers';

const mib = (n) => (n / (1 << 20)).toFixed(0);
let peak = process.memoryUsage();
setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peak.rss) peak = m;
}, 20).unref();
const line = (label, m = process.memoryUsage()) => {
  process.stderr.write(
    `memory-probe ${label} rss ${mib(m.rss)} heapUsed ${mib(m.heapUsed)} heapTotal ${mib(m.heapTotal)} ` +
      `external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)}\n`,
  );
};
process.on('SIGUSR2', () => {
  line('at-peak', peak);
  line('before-gc');
  globalThis.gc?.();
  globalThis.gc?.();
  setTimeout(() => line('after-gc'), 500);
});
