// A whole process of bench/ingest.bench.ts, run on the built code (`npm run build`) as a user runs it.
// Prints one JSON line: seconds since the process started (module loading included), the CPU seconds
// (user + system, every thread) and max RSS.
//
//   node bench/whole-process-child.mjs reflect <dump>               read the file, cut its frames and
//                                                                  decode each with protobufjs reflection
//   node bench/whole-process-child.mjs score <dump> <out> [flags]   `evalstream score <dump> --out <out> flags`
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';

const [mode, file, ...rest] = process.argv.slice(2);
const dist = new URL('../dist/src/', import.meta.url);

if (mode === 'reflect') {
  const { loadOtlpProtoRoot } = await import(new URL('evidence/otlp/load-otlp-proto-root.js', dist).href);
  const { OtlpPayloadSplitter } = await import(new URL('evidence/otlp/otlp-payload-splitter.js', dist).href);
  const Request = loadOtlpProtoRoot().lookupType(
    'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
  );
  const splitter = new OtlpPayloadSplitter('protobuf');
  let spans = 0;
  for (const p of [...splitter.push(readFileSync(file)), ...splitter.end()]) {
    const m = Request.decode(p.bytes);
    for (const rs of m.resourceSpans) for (const ss of rs.scopeSpans) spans += ss.spans.length;
  }
  report({ spans });
} else if (mode === 'score') {
  const { main } = await import(new URL('cli/main.js', dist).href);
  const [out, ...flags] = rest;
  let stdout = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk) => ((stdout += String(chunk)), true);
  const code = await main(['score', file, '--out', out, '--no-progress', '--json', ...flags]);
  process.stdout.write = write;
  report({ code, ...JSON.parse(stdout.trim() || '{}') });
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}

function report(fields) {
  const seconds = performance.now() / 1000;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  process.stdout.write(
    JSON.stringify({ ...fields, seconds, cpuSeconds, maxRssBytes: usage.maxRSS * 1024 }) + '\n',
  );
}
