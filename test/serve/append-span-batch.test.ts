import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import type { OtlpSpan } from '../../src/evidence/otlp/otlp-types.js';
import { appendSpanBatch } from '../../src/serve/append-span-batch.js';
import { SpanBatchBuilder } from '../../src/serve/span-batch-builder.js';
import { ensureStoreSchema } from '../../src/sinks/duckdb/ensure-store-schema.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { StoreRows } from '../../src/sinks/duckdb/store-rows.js';

/** Real SDK spans, decoded from protobuf: unicode, quotes, arrays, numbers, status, kinds, no parent. */
function decodedSpans(): OtlpSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc "ü"', 'host.cores': 2 }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('scope-1');
  const root = tracer.startSpan('invoke_agent a', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'x.list': ['a', 'b"c'], 'x.n': 1.5 },
    startTime: [1_700_000_000, 123],
  });
  const ctx = trace.setSpan(context.active(), root);
  const chat = tracer.startSpan(
    'chat ✓',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: 'héllo\n"q"\\ \u0001 😀' }]),
        'x.bool': true,
        'x.int': 42,
      },
      startTime: [1_700_000_001, 5],
    },
    ctx,
  );
  chat.setStatus({ code: SpanStatusCode.ERROR, message: 'boom ✗' });
  chat.end([1_700_000_002, 0]);
  const empty = tracer.startSpan('', { startTime: [1_700_000_003, 0] }, ctx);
  empty.end([1_700_000_003, 1]);
  root.end([1_700_000_004, 0]);
  const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!;
  const spans: OtlpSpan[] = [];
  for (const rs of decodeExportRequest(body, 'protobuf').resourceSpans)
    for (const ss of rs.scopeSpans) spans.push(...ss.spans);
  return spans;
}

describe('appendSpanBatch', () => {
  it('stores the same spans rows as the DuckDB sink (spanRowCells), across data chunks', async () => {
    const spans = decodedSpans();
    expect(spans).toHaveLength(3);
    const trials = Array.from({ length: 800 }, (_, i) => ({
      ordinal: i,
      taskId: i % 3 === 0 ? null : `task-${i % 5}`,
      trialId: `trial-ü-${i}`,
    }));
    const db = await openDuckDB(':memory:');
    try {
      await ensureStoreSchema(db.connection);
      // 2400 rows: two data chunks; two batches
      for (const half of [trials.slice(0, 500), trials.slice(500)]) {
        const builder = new SpanBatchBuilder();
        half.forEach((_, i) => builder.addTrial(i, i % 2 === 0 ? spans : [...spans].reverse()));
        expect(await appendSpanBatch(db.connection, 'batch', builder.finish(), half)).toBe(half.length * 3);
      }
      const rows = new StoreRows('sink');
      trials.forEach((t, i) => {
        const trial = { id: t.trialId, error: null, ...(t.taskId === null ? {} : { task_id: t.taskId }) };
        rows.addSpans(t.ordinal, trial, (i % 500) % 2 === 0 ? spans : [...spans].reverse());
      });
      await rows.appendTo(db.connection);
      const count = async (sql: string): Promise<number> =>
        Number((await db.connection.runAndReadAll(sql)).getRows()[0]![0]);
      expect(await count("SELECT count(*) FROM spans WHERE run_id = 'batch'")).toBe(2400);
      const cols = `* EXCLUDE (run_id)`;
      const diff = `(SELECT ${cols} FROM spans WHERE run_id = 'batch' EXCEPT ALL SELECT ${cols} FROM spans WHERE run_id = 'sink')
        UNION ALL (SELECT ${cols} FROM spans WHERE run_id = 'sink' EXCEPT ALL SELECT ${cols} FROM spans WHERE run_id = 'batch')`;
      expect(await count(`SELECT count(*) FROM (${diff})`)).toBe(0);
      // NULLs where the sink has them, and the attribute JSON queryable
      expect(await count("SELECT count(*) FROM spans WHERE run_id = 'batch' AND task_id IS NULL")).toBe(
        267 * 3,
      );
      expect(
        await count(
          "SELECT count(*) FROM spans WHERE run_id = 'batch' AND status_message = 'boom ✗' AND parent_span_id IS NOT NULL",
        ),
      ).toBe(800);
      // rows of a null trial (a version replaced within the batch) are skipped
      const builder = new SpanBatchBuilder();
      for (let i = 0; i < 3; i++) builder.addTrial(i, spans);
      const kept = [trials[0]!, null, { ...trials[2]!, trialId: 'last' }];
      expect(await appendSpanBatch(db.connection, 'skip', builder.finish(), kept)).toBe(6);
      expect(await count("SELECT count(*) FROM spans WHERE run_id = 'skip' AND trial_id = 'last'")).toBe(3);
      expect(
        await count(
          `SELECT count(*) FROM spans WHERE run_id = 'batch' AND json_extract_string(attributes, '$."gen_ai.input.messages"') LIKE '%😀%'`,
        ),
      ).toBe(800);
    } finally {
      db.close();
    }
  });
});
