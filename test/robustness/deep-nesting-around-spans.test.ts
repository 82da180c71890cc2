import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { lengthDelimited as field } from './length-delimited.js';
import { readJsonl } from './read-jsonl.js';
import { startServeDb } from './start-serve-db.js';

// Threat: an attribute value nested thousands of levels deep outside a span's own attributes — in
// one of its events or links, or in the resource or scope it belongs to — read by a recursive reader
// (or taking its whole payload down), in `score` and in `serve`.
const DEPTH = 3000;
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PLACES = ['event', 'link', 'resource', 'scope'] as const;
type Place = (typeof PLACES)[number];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-deep-around-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kv = (key: string, value: Buffer): Buffer =>
  Buffer.concat([field(1, Buffer.from(key)), field(2, value)]);
const str = (s: string): Buffer => field(1, Buffer.from(s)); // AnyValue.string_value

/** A protobuf ExportTraceServiceRequest: one span of trial `trial`, `deep` nested in `place`. */
function protobufRequest(place: Place, trial: string, spanId: string): Buffer {
  let value = str('leaf');
  for (let i = 0; i < DEPTH; i++) value = field(5, field(1, value)); // array_value → values
  const deep = kv('deep', value);
  const span = field(
    2,
    field(1, Buffer.from(TRACE, 'hex')),
    field(2, Buffer.from(spanId, 'hex')),
    field(5, Buffer.from('invoke_agent')),
    Buffer.from([(7 << 3) | 1, ...Buffer.alloc(8)]), // start_time_unix_nano
    Buffer.from([(8 << 3) | 1, 0, 0, 0, 0, 0, 0, 0, 1]), // end_time_unix_nano
    field(9, kv('gen_ai.conversation.id', str(trial))),
    place === 'event' ? field(11, field(2, Buffer.from('ev')), field(3, deep)) : Buffer.alloc(0),
    place === 'link'
      ? field(13, field(1, Buffer.alloc(16, 1)), field(2, Buffer.alloc(8, 1)), field(4, deep))
      : Buffer.alloc(0),
  );
  const scope = field(1, field(1, Buffer.from('s')), place === 'scope' ? field(3, deep) : Buffer.alloc(0));
  const resource = place === 'resource' ? field(1, field(1, deep)) : Buffer.alloc(0);
  return field(1, resource, field(2, scope, span));
}

/** The same request in OTLP/JSON (`place` null: nothing deep). */
function jsonRequest(place: Place | null, trial: string, spanId: string): string {
  const value = `${'{"arrayValue":{"values":['.repeat(DEPTH)}{"stringValue":"leaf"}${']}}'.repeat(DEPTH)}`;
  const deep = `[{"key":"deep","value":${value}}]`;
  const events = place === 'event' ? `,"events":[{"name":"ev","attributes":${deep}}]` : '';
  const links =
    place === 'link'
      ? `,"links":[{"traceId":"01010101010101010101010101010101","spanId":"0101010101010101","attributes":${deep}}]`
      : '';
  const span =
    `{"traceId":"${TRACE}","spanId":"${spanId}","name":"invoke_agent","kind":1,` +
    `"startTimeUnixNano":"0","endTimeUnixNano":"1",` +
    `"attributes":[{"key":"gen_ai.conversation.id","value":{"stringValue":"${trial}"}}]${events}${links}}`;
  const resource = place === 'resource' ? `{"attributes":${deep}}` : '{"attributes":[]}';
  const scope = place === 'scope' ? `{"name":"s","attributes":${deep}}` : '{"name":"s"}';
  return `{"resourceSpans":[{"resource":${resource},"scopeSpans":[{"scope":${scope},"spans":[${span}]}]}]}`;
}

/** The field each decoder names for the refused value. */
const FIELDS: Record<Place, { json: string; protobuf: string }> = {
  event: {
    json: 'resourceSpans[0].scopeSpans[0].spans[0].events[0].attributes[0].value',
    protobuf: "Span.events[0].attributes['deep']",
  },
  link: {
    json: 'resourceSpans[0].scopeSpans[0].spans[0].links[0].attributes[0].value',
    protobuf: "Span.links[0].attributes['deep']",
  },
  resource: {
    json: 'resourceSpans[0].resource.attributes[0].value',
    protobuf: "Resource.attributes['deep']",
  },
  scope: {
    json: 'resourceSpans[0].scopeSpans[0].scope.attributes[0].value',
    protobuf: "InstrumentationScope.attributes['deep']",
  },
};

/** What `serve`'s partial success names for the refused span's value. */
const SERVE_NAMES: Record<Place, { json: string; protobuf: string }> = {
  event: { json: 'spans[0].events[0].attributes[0].value', protobuf: "event 'ev' attribute 'deep'" },
  link: { json: 'spans[0].links[0].attributes[0].value', protobuf: "link attribute 'deep'" },
  resource: { json: 'resource.attributes[0].value', protobuf: "resource attribute 'deep'" },
  scope: { json: 'scope.attributes[0].value', protobuf: "scope attribute 'deep'" },
};

describe.each(PLACES)('score: a value %s attribute 3,000 levels deep', (place) => {
  it.each(['json', 'protobuf'] as const)(
    '%s: the span is scored, that value alone refused, a diagnostic naming the field and place',
    async (encoding) => {
      const file = join(dir, `${place}.${encoding === 'json' ? 'jsonl' : 'binpb'}`);
      const bytes =
        encoding === 'json'
          ? Buffer.from(`${jsonRequest(place, 'c1', 'b7ad6b7169203331')}\n`)
          : protobufRequest(place, 'c1', 'b7ad6b7169203331');
      writeFileSync(file, bytes);
      const out = join(dir, `out-${place}-${encoding}`);
      // the report renders every span's events, links, resource and scope: each reader is exercised
      const r = await runCli(['score', file, '--out', out, '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
      const [trial] = readJsonl(join(out, 'trials.jsonl'));
      expect(trial?.['metadata']).toMatchObject({ otlp_span_count: 1 });
      const diagnostics = readJsonl(join(out, 'diagnostics.jsonl'));
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({
        trial_id: 'c1',
        code: 'nesting_too_deep',
        file,
        line: encoding === 'json' ? 1 : null,
        field: FIELDS[place][encoding],
      });
      expect(diagnostics[0]?.['message']).toMatch(
        /^span b7ad6b7169203331: .*'deep'.* nested more than 128 levels deep: value refused \(read as empty\)$/,
      );
      if (encoding === 'protobuf') {
        const offset = diagnostics[0]?.['offset'] as number;
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThan(bytes.length);
      }
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('nesting_too_deep');
    },
  );
});

describe('serve --db: a value 3,000 levels deep in an event, link, resource or scope attribute', () => {
  it('refuses that span by itself (partial success naming the span and field); the store, later exports and /healthz go on', async () => {
    const work = mkdtempSync(join(tmpdir(), 'es-deep-serve-'));
    const { serve, url } = await startServeDb(work, ['--settle-ms', '0']);
    try {
      let n = 0;
      for (const place of PLACES)
        for (const encoding of ['json', 'protobuf'] as const) {
          n += 1;
          const spanId = `ffffffffffff00${n.toString(16).padStart(2, '0')}`;
          const body =
            encoding === 'json'
              ? jsonRequest(place, `deep-${n}`, spanId)
              : protobufRequest(place, `deep-${n}`, spanId);
          const res = await fetch(`${url}/v1/traces`, {
            method: 'POST',
            headers: { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf' },
            body,
          });
          const label = `${place} ${encoding}`;
          expect(res.status, label).toBe(200);
          const answer = Buffer.from(await res.arrayBuffer()).toString('latin1');
          expect(answer, label).toContain(`span ${spanId}`);
          expect(answer, label).toContain("attribute 'deep'");
          expect(answer, label).toContain(SERVE_NAMES[place][encoding]);
          if (encoding === 'json')
            expect(JSON.parse(answer), label).toMatchObject({ partialSuccess: { rejectedSpans: '1' } });
        }
      // a sound trial after them is taken and scored
      const good = await fetch(`${url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: jsonRequest(null, 'good', 'aaaaaaaaaaaa0001'),
      });
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({});
      for (;;) {
        const trials = (
          (await (await fetch(`${url}/v1/summary?omit=task_metric_values`)).json()) as { trial_count: number }
        ).trial_count;
        if (trials === 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited, serve.log()).toBe(0);
    const trials = readJsonl(join(work, 'bundle', 'trials.jsonl'));
    expect(trials.map((t) => t['id'])).toEqual(['good']);
    rmSync(work, { recursive: true, force: true });
  }, 120_000);
});
