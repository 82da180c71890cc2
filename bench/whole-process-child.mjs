// The decode-only process of bench/ingest.bench.ts, the baseline `evalstream score` is measured
// against as whole processes: reads the dump, cuts its frames and decodes each with protobufjs
// reflection (on the built library, `npm run build`). Prints one JSON line with the span count; the
// bench times it as it times the CLI (bench/time-cli.ts).
//
//   node bench/whole-process-child.mjs <dump>
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const [file] = process.argv.slice(2);
const dist = new URL('../dist/src/', import.meta.url);
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
process.stdout.write(JSON.stringify({ spans }) + '\n');
