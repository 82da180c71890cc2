/**
 * bench/decode-otlp-logs: decoding OTLP/protobuf logs exports (40 requests of 200 GenAI records made
 * by the OTel JS SDK: evaluation results and `gen_ai.choice` events with a message body), reading
 * what attachment and a metric read (trace id, event name, one attribute, the body's type). Prints
 * the median µs per record over LOGS_BENCH_ROUNDS rounds (default 10) and its ratio to the baseline
 * measured in the same run: protobufjs' reflection decode (`Type.decode` over `proto/`) of the same
 * bytes, reading the same fields. Then the cost of telling logs from traces in files: decoding the
 * bench/live trace requests with `auto` against `traces`, same run, as a ratio.
 */
import { context, trace } from '@opentelemetry/api';
import { ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { decodeOtlpProtobuf } from '../src/evidence/otlp/decode-otlp-protobuf.js';
import { loadOtlpProtoRoot } from '../src/evidence/otlp/load-otlp-proto-root.js';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';

const rounds = Math.max(1, Number(process.env['LOGS_BENCH_ROUNDS'] ?? 10));
const med = (xs: number[]): number => pandasMedian(xs);

function logsBodies(): Buffer[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'agent' }),
    processors: [new SimpleLogRecordProcessor(exporter)],
  });
  const logger = provider.getLogger('genai', '1.0.0');
  const bodies: Buffer[] = [];
  for (let b = 0; b < 40; b++) {
    exporter.reset();
    for (let i = 0; i < 100; i++) {
      const ctx = trace.setSpanContext(context.active(), {
        traceId: (b * 100 + i + 1).toString(16).padStart(32, '0'),
        spanId: (i + 1).toString(16).padStart(16, '0'),
        traceFlags: 1,
      });
      logger.emit({
        eventName: 'gen_ai.choice',
        context: ctx,
        body: { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'x'.repeat(400) } },
      });
      logger.emit({
        eventName: 'gen_ai.evaluation.result',
        context: ctx,
        attributes: { 'gen_ai.evaluation.name': 'helpfulness', 'gen_ai.evaluation.score.value': i / 100 },
      });
    }
    bodies.push(Buffer.from(ProtobufLogsSerializer.serializeRequest(exporter.getFinishedLogRecords())!));
  }
  return bodies;
}

const bodies = logsBodies();
const recordsPerBody = decodeOtlpProtobuf(bodies[0]!, { signal: 'logs' }).logRecords.length;
const Request = loadOtlpProtoRoot().lookupType(
  'opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest',
);
let checksum = 0;

/** µs per record: the fast decoder, reading trace id, event name, one attribute, the body's type. */
function fastRound(): number {
  const started = performance.now();
  for (const body of bodies) {
    for (const r of decodeOtlpProtobuf(body, { signal: 'logs' }).logRecords) {
      checksum += r.traceId.length + r.eventName.length + r.body.type.length;
      if (r.attributes.getString('gen_ai.evaluation.name') !== undefined) checksum += 1;
    }
  }
  return ((performance.now() - started) * 1000) / (bodies.length * recordsPerBody);
}

interface ReflectedRecord {
  traceId: Uint8Array;
  eventName: string;
  body?: { stringValue?: string; kvlistValue?: unknown };
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** µs per record: protobufjs reflection, reading the same fields. */
function reflectionRound(): number {
  const started = performance.now();
  for (const body of bodies) {
    const msg = Request.decode(body) as unknown as {
      resourceLogs: { scopeLogs: { logRecords: ReflectedRecord[] }[] }[];
    };
    for (const rl of msg.resourceLogs)
      for (const sl of rl.scopeLogs)
        for (const r of sl.logRecords) {
          checksum += Buffer.from(r.traceId).toString('hex').length + r.eventName.length;
          checksum += r.body?.kvlistValue !== undefined ? 6 : 5;
          if (r.attributes.some((a) => a.key === 'gen_ai.evaluation.name')) checksum += 1;
        }
  }
  return ((performance.now() - started) * 1000) / (bodies.length * recordsPerBody);
}

const fast: number[] = [];
const reflection: number[] = [];
fastRound();
reflectionRound();
for (let r = 0; r < rounds; r++) {
  reflection.push(reflectionRound());
  fast.push(fastRound());
}
console.log(
  `baseline (this run): protobufjs reflection decode, median ${med(reflection).toFixed(3)} µs/record`,
);
console.log(
  `decode-otlp-logs: ${bodies.length} requests of ${recordsPerBody} records (${bodies[0]!.length} bytes), ` +
    `${rounds} rounds: median ${med(fast).toFixed(3)} µs/record; ` +
    `${(med(fast) / med(reflection)).toFixed(2)}× the baseline`,
);

// telling logs from traces: trace requests decoded as files decode them (auto) and as /v1/traces does
const { payload } = agentTrialPayloads(8);
const traceBodies = Array.from({ length: 40 }, (_, b) =>
  Buffer.concat(Array.from({ length: 50 }, (_, i) => payload(b * 50 + i + 1))),
);
function traceRound(signal: 'traces' | 'auto'): number {
  let spans = 0;
  const started = performance.now();
  for (let k = 0; k < 5; k++) {
    for (const body of traceBodies)
      for (const rs of decodeOtlpProtobuf(body, { signal }).resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans) {
            spans += 1;
            checksum += span.traceId.length;
          }
  }
  return ((performance.now() - started) * 1000) / spans;
}
const asTraces: number[] = [];
const asAuto: number[] = [];
traceRound('traces');
traceRound('auto');
for (let r = 0; r < rounds; r++) {
  // in turn first and second, so that neither pays the other's garbage more often
  if (r % 2 === 0) asTraces.push(traceRound('traces'));
  asAuto.push(traceRound('auto'));
  if (r % 2 === 1) asTraces.push(traceRound('traces'));
}
console.log(
  `baseline (this run): trace requests decoded as traces, median ${med(asTraces).toFixed(3)} µs/span`,
);
console.log(
  `decode-otlp-logs: the same requests told apart first (auto), median ${med(asAuto).toFixed(3)} µs/span; ` +
    `${(med(asAuto) / med(asTraces)).toFixed(3)}× the baseline (checksum ${checksum & 0xff})`,
);
