/**
 * Runs the evalstream CLI from source in a child process (used by bench/live.bench.ts when `dist/` is
 * missing or older than `src/`); `server-probe.mjs`, preloaded, reports its CPU time and loop delay.
 */
import { main } from '../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
