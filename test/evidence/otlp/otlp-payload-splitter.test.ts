import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from '../../../src/evidence/otlp/otlp-decode-error.js';
import { OtlpPayloadSplitter, type OtlpPayload } from '../../../src/evidence/otlp/otlp-payload-splitter.js';

/** Feeds `bytes` in chunks of `size` and returns every payload. */
function split(
  layout: ConstructorParameters<typeof OtlpPayloadSplitter>[0],
  bytes: Buffer,
  size: number,
): OtlpPayload[] {
  const s = new OtlpPayloadSplitter(layout);
  const out: OtlpPayload[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  out.push(...s.end());
  return out;
}

const frame = (body: Buffer): Buffer => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
};

describe('OtlpPayloadSplitter', () => {
  const lines = Buffer.from('{"a":1}\n\n{"b":"é"}\r\n  \n{"c":3}');

  it.each([1, 2, 3, 7, 1000])('JSON lines cut in %i-byte chunks: lines, numbers and offsets', (size) => {
    expect(split('jsonl', lines, size)).toEqual([
      { kind: 'json', text: '{"a":1}', line: 1, offset: 0 },
      { kind: 'json', text: '{"b":"é"}\r', line: 3, offset: 9 },
      // the last line has no newline after it: marked, so that a parse error there reads as a cut-off file
      { kind: 'json', text: '{"c":3}', line: 5, offset: 24, unterminated: true },
    ]);
  });

  it('a .json file whose first line is a whole object is JSON lines (the Collector writes .json too)', () => {
    expect(split('json', lines, 4).map((p) => (p.kind === 'json' ? p.line : -1))).toEqual([1, 3, 5]);
  });

  it('a pretty-printed .json file is one document', () => {
    const doc = Buffer.from('{\n  "resourceSpans": []\n}\n');
    expect(split('json', doc, 5)).toEqual([{ kind: 'json', text: doc.toString(), line: 1, offset: 0 }]);
  });

  it('auto: JSON by its first byte, protobuf otherwise', () => {
    expect(split('auto', Buffer.from('  [1]'), 2)).toEqual([
      { kind: 'json', text: '  [1]', line: 1, offset: 0 },
    ]);
    expect(split('auto', Buffer.from([0x0a, 0x00]), 1)).toEqual([
      { kind: 'protobuf', bytes: Buffer.from([0x0a, 0x00]), offset: 0, bodyOffset: 0 },
    ]);
  });

  it.each([1, 3, 4, 5, 64])('length-prefixed frames cut in %i-byte chunks, with their offsets', (size) => {
    const a = Buffer.from([0x0a, 0x01, 0x02]);
    const b = Buffer.alloc(40, 0x0a);
    const bytes = Buffer.concat([frame(a), frame(Buffer.alloc(0)), frame(b)]);
    expect(split('protobuf', bytes, size)).toEqual([
      { kind: 'protobuf', bytes: a, offset: 0, bodyOffset: 4 },
      { kind: 'protobuf', bytes: Buffer.alloc(0), offset: 7, bodyOffset: 11 },
      { kind: 'protobuf', bytes: b, offset: 11, bodyOffset: 15 },
    ]);
  });

  it('a single request (first byte 0x0a) is one payload', () => {
    const req = Buffer.from([0x0a, 0x02, 0x12, 0x00]);
    expect(split('protobuf', req, 1)).toEqual([{ kind: 'protobuf', bytes: req, offset: 0, bodyOffset: 0 }]);
  });

  it('a truncated last frame fails with its byte offset after the complete frames', () => {
    const good = frame(Buffer.from([0x0a, 0x00]));
    const s = new OtlpPayloadSplitter('protobuf');
    const got = s.push(Buffer.concat([good, frame(Buffer.alloc(10, 1)).subarray(0, 9)]));
    expect(got).toHaveLength(1);
    expect(() => s.end()).toThrow(OtlpDecodeError);
    const s2 = new OtlpPayloadSplitter('protobuf');
    s2.push(Buffer.concat([good, frame(Buffer.alloc(10, 1)).subarray(0, 9)]));
    try {
      s2.end();
    } catch (e) {
      expect((e as OtlpDecodeError).offset).toBe(6);
      expect((e as Error).message).toMatch(
        /truncated frame at byte 6: the length prefix says 10 bytes, only 5 follow/,
      );
    }
    const s3 = new OtlpPayloadSplitter('protobuf');
    s3.push(Buffer.concat([good, Buffer.from([0, 0])]));
    expect(() => s3.end()).toThrow(/truncated frame header at byte 6/);
  });

  it('an empty input gives no payloads', () => {
    for (const layout of ['json', 'jsonl', 'protobuf', 'auto'] as const)
      expect(split(layout, Buffer.alloc(0), 4)).toEqual([]);
  });
});
