import type { JsonValue } from '../model/json-value.js';
import { floatPathKey } from './float-path-key.js';
import { mayHaveIntegralFloat } from './may-have-integral-float.js';
import { setOwn } from '../util/set-own.js';

/** The result of {@link parsePythonJson}: the value, or where and why the text is not JSON. */
export type ParsedPythonJson =
  | { ok: true; value: JsonValue; floatPaths: Set<string> | null }
  | { ok: false; offset: number; message: string };

// eslint-disable-next-line no-control-regex -- rejecting raw control characters is the point
const CONTROL = /[\x00-\x1f]/;

/**
 * Parses one JSON text the way Python's `json.loads` does (also accepting `NaN`, `Infinity`,
 * `-Infinity`) and records where integral numbers were written as floats (`1.0`), so that
 * `pythonJson(value, { floatPaths })` writes them back byte-for-byte. Lines without such literals take
 * the `JSON.parse` fast path.
 *
 * @example
 * parsePythonJson('{"v": 1.0}'); // { ok: true, value: { v: 1 }, floatPaths: Set { 'v' } }
 * parsePythonJson('{"v": }'); // { ok: false, offset: 6, message: 'unexpected character "}"' }
 */
export function parsePythonJson(text: string): ParsedPythonJson {
  if (!mayHaveIntegralFloat(text)) {
    try {
      return { ok: true, value: JSON.parse(text) as JsonValue, floatPaths: null };
    } catch {
      // fall through: the full parser accepts NaN/Infinity and reports the offset of a real error
    }
  }
  const parser = new Parser(text);
  try {
    parser.skipSpace();
    const value = parser.parseValue();
    parser.skipSpace();
    if (parser.pos < text.length) parser.fail(`unexpected data after the JSON value`);
    return { ok: true, value, floatPaths: parser.floatPaths };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, offset: error.offset, message: error.message };
    throw error;
  }
}

class SyntaxFailure extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

class Parser {
  pos = 0;
  floatPaths: Set<string> | null = null;
  private readonly path: string[] = [];

  constructor(private readonly text: string) {}

  fail(message: string, offset: number = this.pos): never {
    throw new SyntaxFailure(message, offset);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  parseValue(): JsonValue {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    switch (c) {
      case 0x7b:
        return this.parseObject();
      case 0x5b:
        return this.parseArray();
      case 0x22:
        return this.parseString();
      case 0x74:
        return this.literal('true', true);
      case 0x66:
        return this.literal('false', false);
      case 0x6e:
        return this.literal('null', null);
      case 0x4e:
        return this.literal('NaN', NaN);
      case 0x49:
        return this.literal('Infinity', Infinity);
      default:
        if (c === 0x2d && t.startsWith('-Infinity', this.pos)) return this.literal('-Infinity', -Infinity);
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        if (Number.isNaN(c)) this.fail('unexpected end of input');
        this.fail(`unexpected character ${JSON.stringify(t[this.pos])}`);
    }
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos))
      this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}`);
    this.pos += word.length;
    return value;
  }

  private parseObject(): JsonValue {
    const obj: { [key: string]: JsonValue } = {};
    this.parseItems(0x7d, "expected ',' or '}' in an object", () => {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a property name in double quotes');
      const key = this.parseString();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':' after a property name");
      this.pos++;
      this.skipSpace();
      this.path.push(key);
      setOwn(obj, key, this.parseValue());
      this.path.pop();
    });
    return obj;
  }

  private parseArray(): JsonValue {
    const items: JsonValue[] = [];
    this.parseItems(0x5d, "expected ',' or ']' in an array", () => {
      this.path.push(String(items.length));
      items.push(this.parseValue());
      this.path.pop();
    });
    return items;
  }

  /** Reads the items of the object or array opened at `pos`, one `item` call each, through `close`. */
  private parseItems(close: number, expected: string, item: () => void): void {
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === close) {
      this.pos++;
      return;
    }
    for (;;) {
      item();
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      if (c === close) {
        this.pos++;
        return;
      }
      if (c !== 0x2c) this.fail(expected);
      this.pos++;
      this.skipSpace();
    }
  }

  private parseString(): string {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    let escaped = false;
    for (;;) {
      const q = t.indexOf('"', p);
      if (q < 0) this.fail('unterminated string', start);
      // count the backslashes right before the quote
      let b = q - 1;
      while (b > start && t.charCodeAt(b) === 0x5c) b--;
      if ((q - 1 - b) % 2 === 1) {
        escaped = true;
        p = q + 1;
        continue;
      }
      this.pos = q + 1;
      const raw = t.slice(start + 1, q);
      if (!escaped && raw.indexOf('\\') < 0) {
        if (CONTROL.test(raw)) this.fail('invalid control character in string', start);
        return raw;
      }
      try {
        return JSON.parse(t.slice(start, q + 1)) as string;
      } catch {
        this.fail('invalid string escape', start);
      }
    }
  }

  private parseNumber(): number {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    const intStart = p;
    while (isDigit(t.charCodeAt(p))) p++;
    if (p === intStart) this.fail('invalid number', start);
    if (p - intStart > 1 && t.charCodeAt(intStart) === 0x30)
      this.fail('invalid number (leading zero)', start);
    let isFloat = false;
    if (t.charCodeAt(p) === 0x2e) {
      isFloat = true;
      p++;
      const fracStart = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === fracStart) this.fail('invalid number', start);
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      isFloat = true;
      p++;
      const s = t.charCodeAt(p);
      if (s === 0x2b || s === 0x2d) p++;
      const expStart = p;
      while (isDigit(t.charCodeAt(p))) p++;
      if (p === expStart) this.fail('invalid number', start);
    }
    this.pos = p;
    const value = Number(t.slice(start, p));
    if (isFloat && Number.isInteger(value)) {
      (this.floatPaths ??= new Set()).add(floatPathKey(this.path));
    }
    return value;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
