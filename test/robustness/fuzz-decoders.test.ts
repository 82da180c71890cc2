import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { jsonlRowParser } from '../../src/bundle/read-jsonl-rows.js';
import { rowSchemas } from '../../src/bundle/row-schemas.js';
import { ATIFTraceHandle } from '../../src/evidence/atif/atif-trace-handle.js';
import { parseAtif } from '../../src/evidence/atif/parse-atif.js';
import { anyValueToJson } from '../../src/evidence/otlp/any-value-to-json.js';
import { decodeOtlpPayload } from '../../src/evidence/otlp/decode-otlp-payload.js';
import { OtlpDecodeError } from '../../src/evidence/otlp/otlp-decode-error.js';
import { OTLPTraceHandle } from '../../src/evidence/otlp/otlp-trace-handle.js';
import type { OtlpAttributes, OtlpExportRequest } from '../../src/evidence/otlp/otlp-types.js';
import { fromGymRollouts } from '../../src/sources/from-gym-rollouts.js';
import { InputError } from '../../src/sources/input-error.js';
import { recordSdkSpans } from '../evidence/otlp/record-sdk-spans.js';
import { fuzzOptions } from './fuzz-options.js';

// Threat: hostile bytes in any decoder ending the process (uncaught TypeError/RangeError) or hanging it.
// The property everywhere: a value, or an error of the decoder's own kind whose message says where.

const PB = ProtobufTraceSerializer.serializeRequest(recordSdkSpans()) as Uint8Array;
const OTLP_JSON = JSON.stringify(
  JSON.parse(readFileSync('test/fixtures/otlp/samples/agentevals__adk_py_v2_default_S2.json', 'utf8')),
);
const ATIF = JSON.parse(
  readFileSync('test/fixtures/atif/nemo-agent-toolkit__exmp02_atif.json', 'utf8'),
) as unknown;
const SCORE_LINE = readFileSync('examples/sparse-run/scores.jsonl', 'utf8').split('\n')[0] as string;
const TRIAL_LINE = readFileSync('examples/sparse-run/trials.jsonl', 'utf8').split('\n')[0] as string;
const GYM_LINE = readFileSync('test/fixtures/gym/rollouts.jsonl', 'utf8').split('\n')[0] as string;

/** Reads everything a scorer could read from a decoded request (lazy parts included). */
function touch(req: OtlpExportRequest): void {
  const attrs = (a: OtlpAttributes): void => {
    for (const kv of a.entries()) anyValueToJson(kv.value);
  };
  for (const rs of req.resourceSpans) {
    attrs(rs.resource.attributes);
    for (const ss of rs.scopeSpans) {
      attrs(ss.scope.attributes);
      for (const s of ss.spans) {
        void [s.traceId, s.spanId, s.parentSpanId, s.name, s.kind, s.startTimeUnixNano, s.endTimeUnixNano];
        attrs(s.attributes);
        for (const e of s.events) attrs(e.attributes);
        for (const l of s.links) attrs(l.attributes);
        void s.status.message;
      }
    }
  }
  const handle = OTLPTraceHandle.fromRequests([req]);
  handle.normalizedToolCalls();
  handle.normalizedTokenUsage();
  handle.finalText();
  handle.stepCount();
}

/** Byte-level damage: cut, overwrite, insert, or a varint length far past the end. */
const damagedBytes = (base: Uint8Array) =>
  fc.oneof(
    fc.nat({ max: base.length }).map((n) => base.subarray(0, n)),
    fc
      .array(fc.tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 8,
      })
      .map((edits) => {
        const b = Uint8Array.from(base);
        for (const [at, v] of edits) b[at] = v;
        return b;
      }),
    fc
      .tuple(fc.nat({ max: base.length }), fc.uint8Array({ minLength: 1, maxLength: 32 }))
      .map(([at, ins]) => {
        const b = new Uint8Array(base.length + ins.length);
        b.set(base.subarray(0, at));
        b.set(ins, at);
        b.set(base.subarray(at), at + ins.length);
        return b;
      }),
    fc.tuple(fc.nat({ max: base.length - 1 }), fc.constantFrom(0x0f, 0x0b, 0x0c, 0x0e)).map(([at, wt]) => {
      const b = Uint8Array.from(base);
      b[at] = ((b[at] as number) & ~7) | (wt & 7); // wrong or unsupported wire type
      return b;
    }),
    fc.nat({ max: base.length - 6 }).map((at) => {
      const b = Uint8Array.from(base);
      b.set([0xff, 0xff, 0xff, 0xff, 0x0f], at); // a length of 4 GiB
      return b;
    }),
    fc.uint8Array({ maxLength: 512 }),
  );

/** Text-level damage: cut, splice hostile tokens (huge/odd numbers, NaN, invalid UTF-8, long strings). */
const HOSTILE = [
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '99999999999999999999999999',
  '-1',
  '"\uFFFD\uFFFD"',
  Buffer.from([0x22, 0xff, 0xfe, 0xc0, 0x22]).toString('utf8'),
  '"abc"',
  '"0af7651916cd43dd"',
  '"zz"',
  '[]',
  '{}',
  'null',
  `"${'x'.repeat(200_000)}"`,
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
];
const damagedText = (base: string) =>
  fc.oneof(
    fc.nat({ max: base.length }).map((n) => base.slice(0, n)),
    fc
      .tuple(fc.nat({ max: base.length }), fc.nat({ max: 40 }), fc.constantFrom(...HOSTILE))
      .map(([at, cut, token]) => base.slice(0, at) + token + base.slice(at + cut)),
    fc
      .tuple(fc.nat({ max: base.length }), fc.string({ maxLength: 20 }))
      .map(([at, s]) => base.slice(0, at) + s + base.slice(at)),
    // a value replaced after a key: `"key": <hostile>`
    fc.tuple(fc.nat({ max: 1000 }), fc.constantFrom(...HOSTILE)).map(([n, token]) => {
      let i = -1;
      for (let k = 0; k <= n % 60; k++) i = base.indexOf('":', i + 1);
      if (i < 0) return base;
      const end = base.slice(i + 2).search(/[,}\]]/);
      return end < 0 ? base : `${base.slice(0, i + 2)}${token}${base.slice(i + 2 + end)}`;
    }),
  );

/** Runs `f`; an error must be one of `allowed` and its message must say where (non-empty). */
function valueOrClearError(f: () => unknown, allowed: (new (...a: never[]) => Error)[]): void {
  try {
    f();
  } catch (error) {
    if (!allowed.some((k) => error instanceof k)) throw error;
    expect((error as Error).message.length).toBeGreaterThan(0);
  }
}

describe('fuzzing: never an uncaught exception or a hang, always a value or a clear error', () => {
  it('OTLP protobuf decoder', () => {
    fc.assert(
      fc.property(damagedBytes(PB), (bytes) => {
        valueOrClearError(() => {
          const req = decodeOtlpPayload({ kind: 'protobuf', bytes, bodyOffset: 0, offset: 0 } as never);
          touch(req);
        }, [OtlpDecodeError]);
      }),
      fuzzOptions(),
    );
  });

  it('OTLP JSON decoder', () => {
    fc.assert(
      fc.property(damagedText(OTLP_JSON), (text) => {
        valueOrClearError(
          () => touch(decodeOtlpPayload({ kind: 'json', text, line: 1, offset: 0 } as never)),
          [OtlpDecodeError],
        );
      }),
      fuzzOptions(),
    );
  });

  it('ATIF: parse, then read through the handle', () => {
    fc.assert(
      fc.property(damagedText(JSON.stringify(ATIF)), (text) => {
        let payload: unknown;
        try {
          payload = JSON.parse(text);
        } catch {
          return;
        }
        const r = parseAtif(payload);
        if (!r.ok) {
          expect(r.issues.length).toBeGreaterThan(0);
          return;
        }
        const h = ATIFTraceHandle.fromTrajectory(r.trajectory);
        h.normalizedToolCalls();
        h.normalizedTokenUsage();
        h.finalText();
        h.stepCount();
      }),
      fuzzOptions(),
    );
  });

  it.each([
    ['scores.jsonl', SCORE_LINE, rowSchemas.score],
    ['trials.jsonl', TRIAL_LINE, rowSchemas.trial],
  ] as const)('bundle rows (%s)', (name, line, schema) => {
    const parse = jsonlRowParser(schema as never, { displayName: name, register: false });
    fc.assert(
      fc.property(damagedText(line), fc.boolean(), (text, terminated) => {
        valueOrClearError(() => parse(text, 7, terminated), [BundleReadError]);
      }),
      fuzzOptions(),
    );
  });

  describe('Gym rows', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'es-fuzz-gym-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('through the score source', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(damagedText(GYM_LINE), async (text) => {
          const file = join(dir, `rows-${n++}.jsonl`);
          writeFileSync(file, `${GYM_LINE}\n${text}\n`);
          try {
            await lastValueFrom(fromGymRollouts([file]).pipe(toArray()));
          } catch (error) {
            if (!(error instanceof InputError)) throw error;
            expect((error as Error).message).toContain(file);
          } finally {
            rmSync(file, { force: true });
          }
        }),
        fuzzOptions(0.25),
      );
    });
  });
});
