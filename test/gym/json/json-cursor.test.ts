import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonCursor } from '../../../src/gym/json/json-cursor.js';
import { JsonSyntaxError } from '../../../src/gym/json/json-syntax-error.js';
import { KeyInterner } from '../../../src/gym/json/key-interner.js';
import { WasmStringScanner } from '../../../src/gym/json/wasm-string-scanner.js';
import { toPlainJson } from '../../../src/gym/to-plain-json.js';
import type { PyJson } from '../../../src/gym/py-json.js';

function readAll(text: string): PyJson {
  const buf = Buffer.from(text, 'utf8');
  const c = new JsonCursor(buf, 0, buf.length);
  const v = c.readValue(0);
  if (c.ws() !== -1) c.unexpected('end of input');
  return v;
}

function skipAll(text: string, offset = 0): number {
  // place the text at an odd offset of a larger buffer to exercise the word-aligned string scan
  const buf = Buffer.concat([Buffer.alloc(offset, 0x20), Buffer.from(text, 'utf8')]);
  const c = new JsonCursor(buf, offset, buf.length);
  c.skipValue(0);
  if (c.ws() !== -1) c.unexpected('end of input');
  return c.i;
}

function accepts(text: string): boolean {
  try {
    readAll(text);
    skipAll(text, 3);
    return true;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return false;
    throw error;
  }
}

function jsonParseAccepts(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('JsonCursor', () => {
  it('reads any JSON value exactly as JSON.parse does, whatever the layout', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 1, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(toPlainJson(readAll(text))).toEqual(JSON.parse(text));
        expect(skipAll(text, 1)).toBe(Buffer.byteLength(text) + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts exactly what JSON.parse accepts on JSON-like noise', () => {
    const alphabet = fc.constantFrom(...'{}[]",:\\ \t\n0123456789-+.eEtrufalsn"ab\u00e9\u0001'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24, size: 'max' }), (chars) => {
        const text = chars.join('');
        expect(accepts(text)).toBe(jsonParseAccepts(text));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['{"a": 1,}', "expected a string key, found '}'"],
    ['{"a" 1}', "expected ':' after an object key, found '1'"],
    ['[1 2]', "expected ',' or ']' in an array, found '2'"],
    ['{"a": tru}', 'invalid literal, expected true'],
    ['"abc', 'unterminated string'],
    ['"a\tb"', 'control character in string'],
    ['"\\x"', 'invalid escape in string'],
    ['"\\u12G4"', 'invalid \\u escape in string'],
    ['01', "expected end of input, found '1'"],
    ['-', 'expected a digit, found end of line'],
    ['1.', 'expected a digit after the decimal point, found end of line'],
    ['1e+', 'expected a digit in the exponent, found end of line'],
  ])('rejects %j: %s', (text, message) => {
    expect(() => readAll(text)).toThrow(message);
  });

  it('reports the byte offset of the problem', () => {
    try {
      readAll('{"a": [1, 2,, 3]}');
      expect.unreachable();
    } catch (error) {
      expect((error as JsonSyntaxError).offset).toBe(12);
    }
  });

  it('keeps int/float kinds and exact big ints; floats are correctly rounded', () => {
    expect(readAll('[1, 1.0, -0, 1e2, 12345678901234567890, 0.1, 1.7976931348623157e308, 5e-324]')).toEqual([
      1n,
      1,
      0n,
      100,
      12345678901234567890n,
      0.1,
      1.7976931348623157e308,
      5e-324,
    ]);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = String(x);
        const v = readAll(text);
        expect(typeof v === 'bigint' ? Number(v) : v).toBe(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('duplicate keys: the last value wins at the first position (as Python dicts and JSON.parse)', () => {
    expect(Object.entries(readAll('{"a": 1, "b": 2, "a": 3}') as object)).toEqual([
      ['a', 3n],
      ['b', 2n],
    ]);
  });

  it('notes whitespace between tokens', () => {
    const compact = Buffer.from('{"a":[1,"x y"]}');
    const c = new JsonCursor(compact, 0, compact.length);
    c.skipValue(0);
    expect(c.sawWhitespace).toBe(false);
    const spaced = Buffer.from('{"a": [1]}');
    c.reset(spaced, 0, spaced.length);
    c.skipValue(0);
    expect(c.sawWhitespace).toBe(true);
  });

  it('interns keys by their bytes, escaped or not', () => {
    const keys = new KeyInterner();
    const buf = Buffer.from('"reward" "rew\\u0061rd" "é"');
    const c = new JsonCursor(buf, 0, buf.length);
    const a = c.readKey(keys);
    c.ws();
    const b = c.readKey(keys);
    c.ws();
    const e = c.readKey(keys);
    expect(a).toBe(b);
    expect(keys.names[a]).toBe('reward');
    expect(keys.names[e]).toBe('é');
  });
});

describe('JsonCursor.readRepeatedString', () => {
  it('gives what readString gives, reusing the previous value only for the same raw bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('agent', 'agent_b', 'agen', 'a\\"b', 'a\\\\', 'é', '', 'x'.repeat(1100)), {
          maxLength: 12,
          size: 'max',
        }),
        (raws) => {
          const c = new JsonCursor(new Uint8Array(0), 0, 0);
          for (const raw of raws) {
            const bytes = Buffer.from(`"${raw}",`, 'utf8');
            c.reset(bytes, 0, bytes.length);
            const got = c.readRepeatedString();
            expect(got).toBe(JSON.parse(`"${raw}"`));
            expect(c.i).toBe(bytes.length - 1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('still reports a bad string after a repeated one', () => {
    const c = new JsonCursor(new Uint8Array(0), 0, 0);
    c.reset(Buffer.from('"agent"'), 0, 7);
    c.readRepeatedString();
    c.reset(Buffer.from('"agent'), 0, 6);
    expect(() => c.readRepeatedString()).toThrow('unterminated string');
    c.reset(Buffer.from('"agent\u0001"'), 0, 8);
    expect(() => c.readRepeatedString()).toThrow('control character in string');
  });
});

describe('JsonCursor.skipValue fast path', () => {
  /** `bytes` copied into a buffer in WebAssembly memory (strings are then scanned with SIMD). */
  function inWasm(bytes: Buffer): Buffer {
    const buf = WasmStringScanner.allocate(bytes.length);
    bytes.copy(buf);
    return buf;
  }

  /** Outcome of skipping `bytes` with the fast-then-strict skip or the strict one alone. */
  function outcome(bytes: Buffer, strict: boolean, depth = 0): string {
    const c = new JsonCursor(bytes, 0, bytes.length);
    try {
      if (strict) c.skipValueStrict(depth);
      else c.skipValue(depth);
      return `ok ${c.i} ${c.sawWhitespace}`;
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      return `error ${error.offset} ${error.message}`;
    }
  }

  it('agrees with the strict recursive skip on valid and corrupted texts (offset, message, whitespace)', () => {
    const pieces = [
      '"',
      '\\',
      '\\u12',
      '\\x',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '\t',
      '\n',
      '-',
      '0',
      '01',
      '1e',
      '.5',
      'tru',
      'nul',
      '\u0001',
      'é',
      '1E+2',
      '"a"',
    ];
    fc.assert(
      fc.property(
        fc.json(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...pieces), fc.boolean()), { maxLength: 3 }),
        fc.integer({ min: 0, max: 1030 }),
        (text, edits, depth) => {
          let t = text;
          for (const [at, piece, replace] of edits) {
            const p = at % (t.length + 1);
            t = t.slice(0, p) + piece + t.slice(replace ? p + 1 : p);
          }
          const bytes = Buffer.from(t, 'utf8');
          expect(outcome(bytes, false, depth)).toBe(outcome(bytes, true, depth));
          expect(outcome(inWasm(bytes), false, depth)).toBe(outcome(bytes, true, depth));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('long strings scanned with WebAssembly SIMD: same outcome as the strict skip', () => {
    expect(WasmStringScanner.finderOf(WasmStringScanner.allocate(8))).not.toBeNull();
    const piece = fc.oneof(
      fc.string({ minLength: 0, maxLength: 40, size: 'max' }),
      fc.constantFrom(
        '"',
        '\\',
        '\\n',
        '\\u00e9',
        '\\u12',
        '\\q',
        '\u0001',
        '\u001f',
        '\t',
        'é',
        '\u007f',
        ' ',
      ),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12, size: 'max' }),
        fc.nat(40),
        fc.boolean(),
        (pieces, pad, close) => {
          const text = `["${pieces.join('')}${close ? '"' : ''}, 1]`;
          const bytes = Buffer.from(text, 'utf8');
          // at an offset inside the WebAssembly buffer, ending at its last byte
          const buf = WasmStringScanner.allocate(pad + bytes.length);
          buf.fill(0x20, 0, pad);
          bytes.copy(buf, pad);
          const view = buf.subarray(pad);
          expect(outcome(view, false)).toBe(outcome(bytes, true));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('the WebAssembly finder returns the first quote, backslash or control byte (or the end)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 100, size: 'max' }), fc.nat(20), (data, pad) => {
        const buf = WasmStringScanner.allocate(pad + data.length);
        buf.set(data, pad);
        const view = buf.subarray(pad);
        const find = WasmStringScanner.finderOf(view);
        for (let from = 0; from <= data.length; from += 7) {
          let expected = from;
          while (expected < data.length) {
            const c = data[expected] as number;
            if (c === 0x22 || c === 0x5c || c < 0x20) break;
            expected++;
          }
          expect(find?.(from, data.length)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
    expect(WasmStringScanner.finderOf(Buffer.alloc(4))).toBeNull();
  });

  it('leaves deep nesting to the strict path (same limit and message)', () => {
    for (const n of [255, 256, 257, 1024, 1025]) {
      const bytes = Buffer.from('['.repeat(n) + ']'.repeat(n));
      expect(outcome(bytes, false)).toBe(outcome(bytes, true));
    }
    expect(outcome(Buffer.from('['.repeat(1025) + ']'.repeat(1025)), false)).toMatch(/nesting too deep/);
  });
});

describe('JsonCursor.skipObjectFindKey and keyed readKey', () => {
  const usage = Buffer.from('usage');

  /** The outcome of skipObjectFindKey over `text`, placed at `pad` in a WebAssembly buffer or a plain one. */
  function find(text: string, wasm: boolean, pad = 0): string {
    const bytes = Buffer.from(text, 'utf8');
    const buf = wasm ? WasmStringScanner.allocate(pad + bytes.length) : Buffer.alloc(pad + bytes.length);
    buf.fill(0x20, 0, pad);
    bytes.copy(buf, pad);
    const view = buf.subarray(pad);
    const c = new JsonCursor(view, 0, view.length);
    const at = c.skipObjectFindKey(0, usage);
    return at === -2 ? `rejected at ${c.i}` : `found ${at} end ${c.i} ws ${c.sawWhitespace}`;
  }

  /** What the member-by-member read finds: the value index of the only unescaped "usage" member. */
  function expected(text: string): string {
    const bytes = Buffer.from(text, 'utf8');
    const c = new JsonCursor(bytes, 0, bytes.length);
    try {
      let at = -1;
      let count = 0;
      let escaped = false;
      if (c.enterObject()) {
        do {
          c.keyStart();
          const k0 = c.i;
          c.skipString();
          if (bytes.subarray(k0, c.i).includes(0x5c)) escaped = true;
          const isUsage = bytes.toString('utf8', k0, c.i) === '"usage"';
          c.colon();
          if (isUsage) {
            count++;
            at = c.i;
          }
          c.skipValue(1);
        } while (c.nextMember());
      }
      if (count > 1 || escaped) return 'rejected at 0';
      return `found ${at} end ${c.i} ws ${c.sawWhitespace}`;
    } catch {
      return 'rejected at 0';
    }
  }

  it('finds the one "usage" member of valid objects, in WebAssembly memory or not, and rejects the rest', () => {
    const name = fc.constantFrom('usage', 'usage', 'usag', 'usagee', 'us\\u0061ge', 'a', 'u', '');
    const member = fc.tuple(name, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', ' ', '\n'));
    fc.assert(
      fc.property(fc.array(member, { maxLength: 5 }), fc.nat(20), fc.boolean(), (members, pad, corrupt) => {
        let text = `{${members.map(([k, v, s]) => `${s}"${k}"${s}:${JSON.stringify(v)}`).join(',')}}`;
        if (corrupt) text = text.slice(0, -1);
        const want = expected(text);
        expect(find(text, false)).toBe(want);
        expect(find(text, true, pad)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('readKey with a slot: the remembered key is tried first and must match exactly', () => {
    const keys = new KeyInterner();
    const read = (text: string, slot: number): string => {
      const buf = Buffer.from(text);
      const c = new JsonCursor(buf, 0, buf.length);
      const id = c.readKey(keys, slot);
      return `${keys.names[id]} ${c.i}`;
    };
    expect(read('"ab":1', 3)).toBe('ab 4');
    expect(read('"ab":1', 3)).toBe('ab 4');
    expect(read('"a":1', 3)).toBe('a 3');
    expect(read('"abc":1', 3)).toBe('abc 5');
    expect(read('"a\\u0062":1', 3)).toBe('ab 9');
    expect(read('"ab":1', 3)).toBe('ab 4');
    expect(() => read('"ab', 3)).toThrow('unterminated string');
  });
});
