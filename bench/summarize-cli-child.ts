/**
 * `evalstream summarize <args…>` from source in this process, then one JSON line with its wall and
 * CPU time (user + system) and exit code: the child of bench/summarize-utf8.bench.ts.
 */
import { main } from '../src/cli/main.js';

const started = performance.now();
const cpu = process.cpuUsage();
const code = await main(['summarize', ...process.argv.slice(2)]);
const used = process.cpuUsage(cpu);
process.stdout.write(
  `\n${JSON.stringify({ code, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 })}\n`,
);
