/**
 * Runs the evalstream CLI from source in a child process (used by bench/live.bench.ts); prints its
 * own CPU time (`serve-child cpu-us N`, user + system µs) to stderr at exit for the bench.
 */
import { main } from '../src/cli/main.js';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`serve-child cpu-us ${user + system}\n`);
});
process.exitCode = await main(process.argv.slice(2));
