import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOtlpProtobuf } from '../../src/evidence/otlp/decode-otlp-protobuf.js';
import { runCli } from '../cli/run-cli.js';
import { lengthDelimited as field } from './length-delimited.js';
import { readJsonl } from './read-jsonl.js';

// Threat: bytes that are not UTF-8 in the strings read only on demand (OTLP protobuf events, links,
// status, resources, scopes) and in Gym rollout lines replaced by U+FFFD without a word.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-utf8-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `text` with the marker `@` replaced by a byte that is not UTF-8 (each marker its own byte). */
const bad = (text: string, byte: number): Buffer => {
  const at = text.indexOf('@');
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    Buffer.from([byte]),
    Buffer.from(text.slice(at + 1)),
  ]);
};
/** The body of a `KeyValue` with a string value. */
const keyValue = (key: Buffer | string, value: Buffer): Buffer =>
  Buffer.concat([field(1, typeof key === 'string' ? Buffer.from(key) : key), field(2, field(1, value))]);

/**
 * One request: a resource whose attribute value has 0xf8, a scope whose name has 0xf9, and a span
 * whose first event's name has 0xfa, second event's attribute key 0xfb, link's trace state 0xfc,
 * link attribute value 0xfd and status message 0xfe.
 */
function request(): Buffer {
  const span = field(
    2,
    field(1, Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex')),
    field(2, Buffer.from('b7ad6b7169203331', 'hex')),
    field(5, Buffer.from('invoke_agent')),
    field(9, keyValue('gen_ai.conversation.id', Buffer.from('c1'))),
    field(11, field(2, bad('tool @ done', 0xfa))),
    field(11, field(2, Buffer.from('second')), field(3, keyValue(bad('k@', 0xfb), Buffer.from('v')))),
    field(
      13,
      field(1, Buffer.from('0af7651916cd43dd8448eb211c80319d', 'hex')),
      field(2, Buffer.from('b7ad6b7169203332', 'hex')),
      field(3, bad('vendor=@', 0xfc)),
      field(4, keyValue('note', bad('linked @', 0xfd))),
    ),
    field(15, field(2, bad('failed @', 0xfe))),
  );
  const scope = field(1, field(1, bad('scope@', 0xf9)), field(2, Buffer.from('1.0')));
  const resource = field(1, field(1, keyValue('service.name', bad('svc @', 0xf8))));
  return field(1, resource, field(2, scope, span));
}

const EXPECTED_FIELDS: [string, number][] = [
  ['Span.events[0].name', 0xfa],
  ["Span.events[1].attributes key 'k\uFFFD'", 0xfb],
  ['Span.links[0].trace_state', 0xfc],
  ["Span.links[0].attributes['note']", 0xfd],
  ['Span.status.message', 0xfe],
  ['InstrumentationScope.name', 0xf9],
  ["Resource.attributes['service.name']", 0xf8],
];

describe('OTLP protobuf strings read on demand', () => {
  it('decodeOtlpProtobuf with checkValues notes each, with its byte offset', () => {
    const bytes = request();
    const { issues } = decodeOtlpProtobuf(bytes, { checkValues: true });
    expect(issues?.map((i) => [i.field, i.offset, i.spanId, i.code])).toEqual(
      EXPECTED_FIELDS.map(([f, b]) => [f, bytes.indexOf(b), 'b7ad6b7169203331', 'invalid_utf8']),
    );
    // without the check nothing is noted (the serve receiver's decode)
    expect(decodeOtlpProtobuf(bytes).issues).toBeUndefined();
  });

  it('a request with valid strings everywhere has no issue', () => {
    const clean = Buffer.from(
      request()
        .toString('latin1')
        .replace(/[\xf8-\xfe]/g, 'x'),
      'latin1',
    );
    expect(decodeOtlpProtobuf(clean, { checkValues: true }).issues).toBeUndefined();
  });

  it('score: each becomes an invalid_utf8 diagnostic naming the file, byte offset and field', async () => {
    const body = request();
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length, 0);
    const file = join(dir, 'dump.binpb');
    writeFileSync(file, Buffer.concat([head, body]));
    const out = join(dir, 'out-pb');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const rows = readJsonl(join(out, 'diagnostics.jsonl'));
    expect(rows.map((d) => [d['field'], d['offset']])).toEqual(
      EXPECTED_FIELDS.map(([f, b]) => [f, 4 + body.indexOf(b)]),
    );
    expect(rows[0]).toMatchObject({
      trial_id: 'c1',
      code: 'invalid_utf8',
      file,
      line: null,
      message: 'span b7ad6b7169203331: Span.events[0].name: bytes that are not UTF-8, read as U+FFFD',
    });
  });
});

describe('Gym rollout lines', () => {
  it('score: bytes that are not UTF-8 are flagged with file, line, byte offset and JSON path', async () => {
    const lines = readFileSync('test/fixtures/gym/rollouts.jsonl', 'utf8').split('\n');
    const second = Buffer.from(lines[1] as string);
    const quote = second.indexOf('"reward"');
    // a new top-level string field holding 0xff, put before "reward"
    const marked = Buffer.concat([
      second.subarray(0, quote),
      Buffer.from('"note": "a'),
      Buffer.from([0xff]),
      Buffer.from('b", '),
      second.subarray(quote),
    ]);
    const first = Buffer.from(`${lines[0] as string}\n`);
    const file = join(dir, 'rollouts.jsonl');
    writeFileSync(file, Buffer.concat([first, marked, Buffer.from(`\n${lines.slice(2).join('\n')}`)]));
    const out = join(dir, 'out-gym');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const trials = readJsonl(join(out, 'trials.jsonl')) as {
      id: string;
      task_id: string;
      metadata: object;
    }[];
    expect(trials[1]?.metadata).toMatchObject({ note: 'a\uFFFDb' });
    expect(readJsonl(join(out, 'diagnostics.jsonl'))).toEqual([
      {
        trial_id: trials[1]?.id,
        task_id: trials[1]?.task_id,
        code: 'invalid_utf8',
        message: 'byte 0xff is not UTF-8: read as U+FFFD',
        file,
        line: 2,
        offset: first.length + quote + '"note": "a'.length,
        field: 'note',
      },
    ]);
  });

  it('a U+FFFD written as such in a rollout is not flagged', async () => {
    const lines = readFileSync('test/fixtures/gym/rollouts.jsonl', 'utf8').split('\n');
    lines[0] = (lines[0] as string).replace('"reward"', '"note": "a\uFFFDb", "reward"');
    const file = join(dir, 'rollouts-fffd.jsonl');
    writeFileSync(file, lines.join('\n'));
    const out = join(dir, 'out-gym-fffd');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'trials.jsonl'), 'utf8')).toContain('a\\ufffdb');
    expect(() => readFileSync(join(out, 'diagnostics.jsonl'))).toThrow();
  });
});
