/** Runs the evalstream CLI from source in a child process (used by bench/live.bench.ts). */
import { main } from '../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
