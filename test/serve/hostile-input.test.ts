import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { LiveDuckDBStore } from '../../src/serve/live-duckdb-store.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { SharedAttributeChecks, tooDeepAttribute } from '../../src/serve/too-deep-attribute.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { deepAttributeJson, deepAttributeRequest } from './deep-attribute-request.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';
import { startEngineServer } from './start-engine-server.js';

const RUN = 'agent-eval-20260101000000-00000000';

function agentSpans(trial: string) {
  const agent = fakeAgent(new InMemorySpanExporter());
  agent.runTrial('t', trial);
  return agent.recorded.getFinishedSpans();
}

async function post(url: string, body: Uint8Array | string, type: string): Promise<Response> {
  return fetch(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body });
}

describe('serve under hostile input', () => {
  it('refuses a span nested thousands of levels deep (1.5 MB) by itself; the store and later exports go on', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'evalstream-hostile-')), 'live.duckdb');
    const store = new LiveDuckDBStore(file, { runId: RUN, flushMs: 5, maxBufferedSpans: 100_000 });
    await store.open();
    const engine = new LiveEngine(
      liveEngineConfig({ completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null } }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [store],
    );
    const { http, url } = await startEngineServer(engine);
    try {
      const first = agentSpans('victim');
      const traceId = first[0]!.spanContext().traceId;
      const crafted = deepAttributeRequest({
        traceId,
        spanId: 'ffffffffffff0001',
        trialId: 'victim',
        depth: 5000,
        padBytes: 1_500_000,
      });
      expect(crafted.length).toBeGreaterThan(1_500_000);
      const body = Buffer.concat([ProtobufTraceSerializer.serializeRequest(first)!, crafted]);
      const res = await post(url, body, 'application/x-protobuf');
      expect(res.status).toBe(200);
      const answer = new TextDecoder().decode(await res.arrayBuffer());
      expect(answer).toContain('nested too deeply');
      expect(answer).toContain("attribute 'payload'");

      const json = deepAttributeJson({ traceId, spanId: 'ffffffffffff0002', trialId: 'victim', depth: 3000 });
      const refused = await post(url, json, 'application/json');
      expect(refused.status).toBe(200);
      expect(await refused.json()).toMatchObject({
        partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringContaining("attribute 'payload'") },
      });

      const later = await post(
        url,
        ProtobufTraceSerializer.serializeRequest(agentSpans('later'))!,
        'application/x-protobuf',
      );
      expect(later.status).toBe(200);
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (engine.finalTrials().length === 2) resolve();
          else setTimeout(check, 20);
        };
        check();
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await http.shutdown();
      await engine.shutdown();
      await store.shutdown();
    }
    const db = await openDuckDB(file, { readOnly: true });
    const rows = (
      await db.connection.runAndReadAll('SELECT trial_id FROM trials ORDER BY trial_id')
    ).getRows();
    const spans = Number((await db.connection.runAndReadAll('SELECT count(*) FROM spans')).getRows()[0]![0]);
    db.close();
    expect(rows.map((r) => String(r[0]))).toEqual(['later', 'victim']);
    expect(spans).toBe(2 * agentSpans('x').length);
  });

  it('takes values up to the depth limit and names the attribute past it', () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const at = (depth: number) =>
      decodeExportRequest(
        deepAttributeRequest({ traceId, spanId: '00000000000000aa', trialId: 'x', depth, padBytes: 1 }),
        'protobuf',
      ).resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
    expect(tooDeepAttribute(at(64))).toBeNull();
    expect(tooDeepAttribute(at(65))).toBe("attribute 'payload' nests deeper than 64 levels");
  });

  it('names a resource nested too deeply for each of its spans, and only for its spans, with one memo per request', () => {
    type Value = { stringValue: string } | { arrayValue: { values: Value[] } };
    const nest = (depth: number): Value =>
      depth === 0 ? { stringValue: 'x' } : { arrayValue: { values: [nest(depth - 1)] } };
    const span = (n: number) => ({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: `00000000000000a${n}`,
      name: 's',
      startTimeUnixNano: '1',
      endTimeUnixNano: '2',
    });
    const body = JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'deep', value: nest(65) }] },
          scopeSpans: [{ scope: { name: 'a' }, spans: [span(1), span(2)] }],
        },
        { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'b' }, spans: [span(3)] }] },
        {
          resource: { attributes: [{ key: 'flat', value: nest(64) }] },
          scopeSpans: [{ scope: { name: 'c' }, spans: [span(4)] }],
        },
      ],
    });
    const spans = decodeExportRequest(Buffer.from(body), 'json').resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) => ss.spans),
    );
    const deep = "resource attribute 'deep' nests deeper than 64 levels";
    const shared = new SharedAttributeChecks();
    expect(spans.map((s) => tooDeepAttribute(s, shared))).toEqual([deep, deep, null, null]);
    expect(spans.map((s) => tooDeepAttribute(s))).toEqual([deep, deep, null, null]);
  });

  it('names a resource whose attributes do not decode (found only when they are walked) for its spans', () => {
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(agentSpans('corrupt'))!);
    // `service.name`'s value tag (field 2, length-delimited) made wire type 7: the request still
    // decodes, the resource's attributes do not
    const at = body.indexOf('service.name') + 'service.name'.length;
    expect(body[at]).toBe(0x12);
    body[at] = 0x17;
    const spans = decodeExportRequest(body, 'protobuf').resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) => ss.spans),
    );
    expect(spans.length).toBeGreaterThan(0);
    for (const span of spans) expect(tooDeepAttribute(span)).toMatch(/^an attribute does not decode \(.+\)$/);
  });
});
