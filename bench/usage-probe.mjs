// Preloaded (`node --import`) into a CLI process that a bench times: when the process exits it writes
// one stderr line, `@usage {"cpu":…,"rss":…}`: CPU seconds (user + system, every thread, module
// loading included) and peak RSS in bytes. Worker threads, which inherit the preload, write nothing.
import { writeSync } from 'node:fs';
import process from 'node:process';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    const usage = { cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS * 1024 };
    writeSync(2, `\n@usage ${JSON.stringify(usage)}\n`);
  });
}
