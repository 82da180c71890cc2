// Preloaded (`node --import`) into a CLI process whose memory a bench follows over time: every
// EVALSTREAM_RSS_PROBE_MS (default 100) it samples `process.memoryUsage()` and the sizes of V8's heap
// spaces, and notes which phase the run is in from the files of the bundle directory
// EVALSTREAM_RSS_PROBE_DIR (`stream` until `summary.json` appears in it or in its staging directory,
// `report` while `report.html` is being written, `end` after); at exit it writes the samples as JSON
// to EVALSTREAM_RSS_PROBE_FILE. Worker threads, which inherit the preload, do nothing.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { getHeapSpaceStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const file = process.env.EVALSTREAM_RSS_PROBE_FILE;
const dir = process.env.EVALSTREAM_RSS_PROBE_DIR;
if (isMainThread && file) {
  const every = Number(process.env.EVALSTREAM_RSS_PROBE_MS ?? 100);
  const t0 = performance.now();
  const samples = [];
  let phase = 'stream';
  const names = () => {
    if (!dir || !existsSync(dir)) return [];
    const out = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      out.push(entry.name);
      if (entry.isDirectory()) for (const inner of readdirSync(join(dir, entry.name))) out.push(inner);
    }
    return out;
  };
  const sample = () => {
    if (phase !== 'end') {
      const seen = names();
      if (seen.some((n) => n.startsWith('report.html.'))) phase = 'report';
      else if (phase === 'report' && seen.includes('report.html')) phase = 'end';
      else if (phase === 'stream' && seen.includes('summary.json')) phase = 'summary';
    }
    const m = process.memoryUsage();
    const spaces = {};
    for (const s of getHeapSpaceStatistics()) spaces[s.space_name] = s.space_size;
    samples.push({ ms: Math.round(performance.now() - t0), phase, ...m, spaces });
  };
  setInterval(sample, every).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(file, JSON.stringify(samples));
  });
}
