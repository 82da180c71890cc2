// Preloaded into the server of bench/live.bench.ts (`node --import`), whether it runs the built CLI or
// the sources: prints the process's CPU time at exit (`serve-child cpu-us N`, user + system µs), and
// measures the event loop's delay during the load: the bench sends SIGUSR2 when the load starts (the
// histogram is reset) and when it ends (`serve-child loop-delay p50 P p99 P max M`, in ms).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

const delay = monitorEventLoopDelay({ resolution: 2 });
let loadStarted = false;
process.on('SIGUSR2', () => {
  if (!loadStarted) {
    loadStarted = true;
    delay.reset();
    delay.enable();
    return;
  }
  delay.disable();
  const ms = (ns) => (ns / 1e6).toFixed(1);
  process.stderr.write(
    `serve-child loop-delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)}\n`,
  );
});
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`serve-child cpu-us ${user + system}\n`);
});
