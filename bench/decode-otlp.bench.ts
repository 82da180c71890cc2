/**
 * bench/decode-otlp: decoding OTLP/protobuf export requests as `serve` receives them (50 bench/live
 * trials of 9 real OTel SDK spans per request, 758 kB), reading what assembly reads from every span
 * (trace id, span id, start time, one attribute). Prints the median and best µs per span over
 * DECODE_BENCH_ROUNDS rounds (default 12) of 400 requests, and its ratio to the baseline measured in
 * the same run: one pass over the same bytes (a sum of them as 32-bit words), less than any decoder
 * does. Run pinned (`taskset -c 1 npm run bench -- decode-otlp`) for steadier figures.
 */
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { decodeExportRequest } from '../src/serve/decode-export-request.js';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';

const rounds = Math.max(1, Number(process.env['DECODE_BENCH_ROUNDS'] ?? 12));
const { payload } = agentTrialPayloads(8);
const bodies = Array.from({ length: 40 }, (_, b) =>
  Buffer.concat(Array.from({ length: 50 }, (_, i) => payload(b * 50 + i + 1))),
);

let checksum = 0;
/** One round: every body decoded 10 times; µs per span. */
function decodeRound(): number {
  let spans = 0;
  const started = performance.now();
  for (let k = 0; k < 10; k++) {
    for (const body of bodies) {
      for (const rs of decodeExportRequest(body, 'protobuf').resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans) {
            spans += 1;
            checksum += span.traceId.length + span.spanId.length + Number(span.startTimeUnixNano & 1n);
            if (span.attributes.getString('gen_ai.conversation.id') !== undefined) checksum += 1;
          }
    }
  }
  return ((performance.now() - started) * 1000) / spans;
}

/** The baseline: one pass over the same bytes per decode, as 32-bit words; µs per span. */
function baselineRound(spansPerBody: number): number {
  const started = performance.now();
  for (let k = 0; k < 10; k++) {
    for (const body of bodies) {
      const words = new Int32Array(body.buffer, body.byteOffset, body.byteLength >>> 2);
      let sum = 0;
      for (let i = 0; i < words.length; i++) sum = (sum + (words[i] as number)) | 0;
      checksum += sum & 1;
    }
  }
  return ((performance.now() - started) * 1000) / (10 * bodies.length * spansPerBody);
}

const spansPerBody = decodeExportRequest(bodies[0] as Buffer, 'protobuf')
  .resourceSpans.flatMap((rs) => rs.scopeSpans)
  .reduce((n, ss) => n + ss.spans.length, 0);
const decode: number[] = [];
const base: number[] = [];
decodeRound(); // warm-up: the decoder optimised
for (let r = 0; r < rounds; r++) {
  base.push(baselineRound(spansPerBody));
  decode.push(decodeRound());
}
const med = (xs: number[]): number => pandasMedian(xs);
console.log(`baseline (this run): one pass over the request bytes, median ${med(base).toFixed(3)} µs/span`);
console.log(
  `decode-otlp: ${bodies.length} requests of ${spansPerBody} spans (${bodies[0]!.length} bytes), ${rounds} rounds: ` +
    `median ${med(decode).toFixed(3)} µs/span, best ${Math.min(...decode).toFixed(3)}; ` +
    `${(med(decode) / med(base)).toFixed(1)}× the baseline (checksum ${checksum & 0xff})`,
);
