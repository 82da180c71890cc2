/**
 * Child of bench/report.bench.ts: runs one `evalstream` command in this process and prints, as one
 * JSON line on stdout, its exit code, wall time, peak RSS and the bytes this process read
 * (`/proc/self/io` rchar, 0 where there is none).
 *   node --import tsx bench/report-child.ts summarize runs/big
 */
import { readFileSync } from 'node:fs';
import { main } from '../src/cli/main.js';

function bytesRead(): number {
  try {
    return Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const before = bytesRead();
const t0 = performance.now();
// the command's own output goes to stderr, so stdout carries only the figures
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array) =>
  process.stderr.write(chunk)) as typeof process.stdout.write;
const code = await main(process.argv.slice(2));
const ms = performance.now() - t0;
const read = bytesRead() - before;
write(
  `${JSON.stringify({ code, ms, maxRssMB: process.resourceUsage().maxRSS / 1024, readMB: read / 1e6 })}\n`,
);
