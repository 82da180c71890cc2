import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordTrialPool, writeAgentTraceDump } from '../../bench/generate-agent-traces.js';
import { OtlpFileTraces } from '../../src/evidence/otlp/otlp-file-traces.js';
import { OTLPTraceHandle } from '../../src/evidence/otlp/otlp-trace-handle.js';
import { readOtlpFileSync } from '../../src/evidence/otlp/read-otlp-file-sync.js';

// a dump of many trials, recorded with the OpenTelemetry JS SDK and framed as the Collector's file
// exporter writes it (bench/generate-agent-traces.ts)
const dump = join(mkdtempSync(join(tmpdir(), 'otlp-file-traces-')), 'dump.otlp.pb');
let traceIds: string[] = [];

beforeAll(async () => {
  await writeAgentTraceDump(dump, 1_200_000, recordTrialPool(12));
  const seen = new Set<string>();
  for (const request of readOtlpFileSync(dump))
    for (const rs of request.resourceSpans)
      for (const ss of rs.scopeSpans) for (const span of ss.spans) seen.add(span.traceId);
  traceIds = [...seen];
});

/** What a trial's handle gives: its spans (ids, in order), tool calls, tokens and final text. */
const view = (h: OTLPTraceHandle) => ({
  spans: h.spans().map((s) => s.spanId),
  logs: h.logRecords().length,
  calls: h.normalizedToolCalls(),
  tokens: h.tokenUsage(),
  text: h.finalText(),
});

describe('OtlpFileTraces', () => {
  it('gives each trace (and a set of traces) what a handle over the file narrowed to it gives', () => {
    expect(traceIds.length).toBeGreaterThan(20);
    const traces = OtlpFileTraces.read(dump);
    for (const id of traceIds) {
      expect(view(traces.handle([id]))).toEqual(view(OTLPTraceHandle.fromFile(dump, { traceIds: [id] })));
    }
    // two traces of one trial: spans in file order, not trace by trace
    const pair = [traceIds[5]!, traceIds[1]!];
    expect(view(traces.handle(pair))).toEqual(view(OTLPTraceHandle.fromFile(dump, { traceIds: pair })));
    expect(traces.handle(['no-such-trace']).normalizedToolCalls()).toEqual([]);
  });

  it('names the file when it cannot be read', () => {
    expect(() => OtlpFileTraces.read(join(dump, '..', 'missing.otlp.pb'))).toThrow(/missing\.otlp\.pb/);
  });
});
