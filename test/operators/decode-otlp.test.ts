import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { OtlpPayloadItem, OtlpRequestItem } from '../../src/evidence/otlp/otlp-stream-types.js';
import { decodeOtlp } from '../../src/operators/decode-otlp.js';
import { InputError } from '../../src/sources/input-error.js';
import { recordSdkSpans } from '../evidence/otlp/record-sdk-spans.js';

const json = (line: number, text: string): OtlpPayloadItem => ({
  file: 'd.jsonl',
  payload: { kind: 'json', text, line, offset: line * 10 },
  bytesRead: line * 10,
});
const pb = (offset: number, bytes: Buffer): OtlpPayloadItem => ({
  file: 'd.binpb',
  payload: { kind: 'protobuf', bytes, offset, bodyOffset: offset + 4 },
  bytesRead: offset + 4 + bytes.length,
});
const names = (r: OtlpRequestItem): string =>
  r.request.resourceSpans
    .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name)))
    .join(',');
const scheduler = (): TestScheduler => new TestScheduler((a, b) => expect(a).toEqual(b));
const doc = (name: string): string =>
  JSON.stringify({
    resourceSpans: [
      { scopeSpans: [{ spans: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name }] }] },
    ],
  });

/** The message `JSON.parse` gives for `text`. */
function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('decodeOtlp (marbles)', () => {
  it('decodes JSON and protobuf payloads in order, keeping where they came from', () => {
    const bytes = Buffer.from(ProtobufTraceSerializer.serializeRequest(recordSdkSpans()) as Uint8Array);
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('a-b|', { a: json(1, doc('x')), b: pb(100, bytes) });
      expectObservable(
        src.pipe(
          decodeOtlp(),
          map((r) => `${r.file}@${r.line ?? r.offset}:${names(r).split(',').length}`),
        ),
      ).toBe('a-b|', { a: 'd.jsonl@1:1', b: 'd.binpb@100:5' });
    });
  });

  it('a payload that does not decode errors with an InputError naming file and line or byte offset', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('a-b-c|', {
        a: json(1, doc('x')),
        b: json(2, '{"resourceSpans": [1,'),
        c: json(3, doc('y')),
      });
      expectObservable(src.pipe(decodeOtlp(), map(names))).toBe(
        'a-#',
        { a: 'x' },
        new InputError(`invalid JSON: ${parseErrorOf('{"resourceSpans": [1,')}`, {
          file: 'd.jsonl',
          line: 2,
        }),
      );
    });
    const truncated = Buffer.from(
      ProtobufTraceSerializer.serializeRequest(recordSdkSpans()) as Uint8Array,
    ).subarray(0, 40);
    let caught: unknown;
    scheduler().run(({ cold }) => {
      cold('a|', { a: pb(1000, truncated) })
        .pipe(decodeOtlp())
        .subscribe({ error: (e: unknown) => (caught = e) });
    });
    expect(caught).toBeInstanceOf(InputError);
    const offset = (caught as InputError).offset as number;
    expect([offset >= 1004, offset <= 1044, (caught as InputError).file]).toEqual([true, true, 'd.binpb']);
  });

  it('passes upstream errors through untouched', () => {
    const upstream = new Error('disk');
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<OtlpPayloadItem>('-#', undefined, upstream).pipe(decodeOtlp())).toBe(
        '-#',
        undefined,
        upstream,
      );
    });
  });
});
