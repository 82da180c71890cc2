// Preloaded into the server of bench/live.bench.ts (`node --import`), whether it runs the built CLI or
// the sources: prints the process's CPU time at exit (`serve-child cpu-us N`, user + system µs), and
// measures the event loop's delay during the load: the bench sends SIGUSR2 when the load starts (the
// histogram is reset) and when it ends (`serve-child loop-delay p50 P p99 P max M`, in ms).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval, setTimeout } from 'node:timers';
import { isMainThread, threadId } from 'node:worker_threads';

// (the receiving thread's figures: this module also runs in the worker threads when the options
// below pass it to them)
if (isMainThread) {
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
}

// LIVE_BENCH_ENGINE_PROF=DIR[:FROM_S[:FOR_S]] profiles the CPU of each worker thread (the engine
// thread) from FROM_S seconds after it starts (default 10) for FOR_S seconds (default 10), written
// as DIR/engine-<thread id>.cpuprofile (the main thread is profiled with --cpu-prof).
// LIVE_BENCH_ENGINE_STALLS=FILE appends, for each worker thread, every gap of over 40 ms between two
// 5 ms timer ticks (a stall of its event loop): thread id, seconds since it started, the gap in ms.
const engineProf = process.env['LIVE_BENCH_ENGINE_PROF'];
const stallFile = process.env['LIVE_BENCH_ENGINE_STALLS'];

if (isMainThread && (engineProf || stallFile)) {
  // workers get this module too (serve starts them with no Node options of their own)
  const threads = createRequire(import.meta.url)('node:worker_threads');
  const Original = threads.Worker;
  threads.Worker = class extends Original {
    constructor(file, options = {}) {
      super(file, { ...options, execArgv: [...(options.execArgv ?? []), '--import', import.meta.url] });
    }
  };
  syncBuiltinESMExports();
}

if (!isMainThread && engineProf) {
  const [dir, from = '10', span = '10'] = engineProf.split(':');
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  setTimeout(
    async () => {
      await post('Profiler.enable');
      await post('Profiler.start');
      setTimeout(
        async () => {
          const { profile } = await post('Profiler.stop');
          mkdirSync(dir, { recursive: true });
          writeFileSync(`${dir}/engine-${threadId}.cpuprofile`, JSON.stringify(profile));
          process.stderr.write(`serve-child engine profile written\n`);
        },
        Number(span) * 1000,
      ).unref();
    },
    Number(from) * 1000,
  ).unref();
}

if (!isMainThread && stallFile) {
  const started = performance.now();
  let last = started;
  setInterval(() => {
    const now = performance.now();
    if (now - last > 40)
      appendFileSync(
        stallFile,
        `${threadId} ${((now - started) / 1000).toFixed(2)} ${(now - last).toFixed(0)}\n`,
      );
    last = now;
  }, 5).unref();
}
