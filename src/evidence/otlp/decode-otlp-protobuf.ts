import protobuf from 'protobufjs/minimal.js';
import { MAX_ANY_VALUE_DEPTH } from './max-any-value-depth.js';
import { firstInvalidUtf8 } from '../../util/first-invalid-utf8.js';
import { wireMessageProblems, type MessageStrings } from './wire-message-problems.js';
import { grownTypedArray } from '../../util/grown-typed-array.js';
import { checkWireValue } from './check-wire-value.js';
import { ListAttributes } from './list-attributes.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import type {
  OtlpAnyValue,
  OtlpAttributes,
  OtlpExportRequest,
  OtlpKeyValue,
  OtlpLogRecord,
  OtlpResource,
  OtlpResourceSpans,
  OtlpScope,
  OtlpScopeSpans,
  OtlpSpan,
  OtlpSpanEvent,
  OtlpSpanIssue,
  OtlpSpanLink,
  OtlpStatus,
  OtlpStringValue,
} from './otlp-types.js';

type Reader = protobuf.Reader;
const { Reader } = protobuf;

/*
 * Field tags ((field << 3) | wire type) of the messages in proto/ (see otlp-fields.md). The structure
 * down to each span's fields is scanned eagerly (so truncation is found at decode time, with its byte
 * offset); attribute lists, events, links and status are kept as byte ranges of the request buffer and
 * decoded when first read. Strings are decoded on first read, ids are hex-encoded on first read.
 */
const LEN = 2;
const T_REQ_RESOURCE_SPANS = (1 << 3) | LEN;
const T_RS_RESOURCE = (1 << 3) | LEN;
const T_RS_SCOPE_SPANS = (2 << 3) | LEN;
const T_RS_SCHEMA_URL = (3 << 3) | LEN;
const T_SS_SCOPE = (1 << 3) | LEN;
const T_SS_SPANS = (2 << 3) | LEN;
const T_SS_SCHEMA_URL = (3 << 3) | LEN;
const T_SPAN_TRACE_ID = (1 << 3) | LEN;
const T_SPAN_SPAN_ID = (2 << 3) | LEN;
const T_SPAN_TRACE_STATE = (3 << 3) | LEN;
const T_SPAN_PARENT = (4 << 3) | LEN;
const T_SPAN_NAME = (5 << 3) | LEN;
const T_SPAN_KIND = 6 << 3;
const T_SPAN_START = (7 << 3) | 1;
const T_SPAN_END = (8 << 3) | 1;
const T_SPAN_ATTRIBUTES = (9 << 3) | LEN;
const T_SPAN_DROPPED_ATTRS = 10 << 3;
const T_SPAN_EVENTS = (11 << 3) | LEN;
const T_SPAN_DROPPED_EVENTS = 12 << 3;
const T_SPAN_LINKS = (13 << 3) | LEN;
const T_SPAN_DROPPED_LINKS = 14 << 3;
const T_SPAN_STATUS = (15 << 3) | LEN;
const T_SPAN_FLAGS = (16 << 3) | 5;

type Buf = Buffer & {
  utf8Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
};

function asBuf(bytes: Uint8Array): Buf {
  return (
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  ) as Buf;
}

function fail(message: string, offset: number, field: string): never {
  throw new OtlpDecodeError(`${message} at byte ${offset} (${field})`, { offset, field });
}

/**
 * Runs a decode done on demand (after `decodeOtlpProtobuf` returned): the reader's own range errors
 * (a read past the end of a corrupt message) become an `OtlpDecodeError` naming where it started.
 */
function onDemand<T>(decode: () => T, at: number, field: string): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw error;
    return fail(`truncated or corrupt: ${(error as Error).message}`, at, field);
  }
}

/** Reads a length prefix and checks the sub-message fits in `[pos, end)`. Returns the sub-message end. */
function subEnd(r: Reader, end: number, field: string): number {
  const at = r.pos;
  const len = r.uint32();
  const stop = r.pos + len;
  if (stop > end) fail(`truncated or corrupt: length ${len} runs past the end of its message`, at, field);
  return stop;
}

function skipField(r: Reader, tag: number, end: number, field: string): void {
  const at = r.pos;
  switch (tag & 7) {
    case 0:
      r.skip();
      break;
    case 1:
      r.skip(8);
      break;
    case 2:
      r.pos = subEnd(r, end, field);
      break;
    case 5:
      r.skip(4);
      break;
    default:
      fail(`unsupported wire type ${tag & 7} (field ${tag >>> 3})`, at, field);
  }
  if (r.pos > end) fail('truncated or corrupt field', at, field);
}

/** Runs `body` with the reader bounded to `[r.pos, end)` so over-reads raise instead of leaking. */
function bounded(r: Reader, end: number): number {
  const outer = r.len;
  r.len = end;
  return outer;
}

/** 8 bytes copied here are read as one little-endian uint64 (one bigint made, no bigint arithmetic). */
const scratch64 = new BigUint64Array(1);
const scratch64Bytes = new Uint8Array(scratch64.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function readFixed64(buf: Buf, pos: number): bigint {
  if (pos < 0) return 0n;
  if (!littleEndian) return buf.readBigUInt64LE(pos);
  for (let j = 0; j < 8; j += 1) scratch64Bytes[j] = buf[pos + j] as number;
  return scratch64[0] as bigint;
}

function readVarint64(r: Reader): bigint {
  let lo = 0;
  let hi = 0;
  let shift = 0;
  const buf = r.buf;
  for (let i = 0; i < 10; i += 1) {
    if (r.pos >= r.len) fail('truncated varint', r.pos, 'int_value');
    const b = buf[r.pos++] as number;
    if (shift < 28) lo |= (b & 0x7f) << shift;
    else if (shift === 28) {
      lo |= (b & 0x0f) << 28;
      hi |= (b & 0x7f) >>> 4;
    } else hi |= (b & 0x7f) << (shift - 32);
    if (b < 0x80) return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
    shift += 7;
  }
  return fail('invalid varint', r.pos, 'int_value');
}

class WireString implements OtlpStringValue {
  readonly type = 'string' as const;
  readonly #buf: Buf;
  readonly #start: number;
  readonly byteLength: number;
  #value: string | null = null;

  constructor(buf: Buf, start: number, byteLength: number) {
    this.#buf = buf;
    this.#start = start;
    this.byteLength = byteLength;
  }

  get value(): string {
    this.#value ??= this.#buf.utf8Slice(this.#start, this.#start + this.byteLength);
    return this.#value;
  }

  /** The UTF-8 bytes (a view into the request buffer, not a copy). */
  get bytes(): Uint8Array {
    return this.#buf.subarray(this.#start, this.#start + this.byteLength);
  }

  toJSON(): string {
    return this.value;
  }
}

const EMPTY_VALUE: OtlpAnyValue = { type: 'empty' };

/**
 * Where the string of an `AnyValue` in `[start, end)` that is just a `string_value` (the usual case)
 * begins (the string runs to `end`; its length takes at most 4 varint bytes); -1 for any other value
 * (decoded the general way). No allocation.
 */
function plainStringAt(buf: Buf, start: number, end: number): number {
  if (buf[start] !== ((1 << 3) | LEN)) return -1;
  let v = 0;
  const pos = start + 1;
  for (let i = 0; i < 4 && pos + i < end; i += 1) {
    const b = buf[pos + i] as number;
    v |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      const at = pos + i + 1;
      return at + v === end ? at : -1;
    }
  }
  return -1;
}

/**
 * Whether the `AnyValue` in `[start, end)` is one scalar field (string, bool, int, double) or
 * empty: such a value holds no array or kvlist, so it cannot nest. Anything else counts as nesting.
 */
function flatValue(buf: Buf, start: number, end: number): boolean {
  if (start < 0 || start === end || plainStringAt(buf, start, end) >= 0) return true;
  const tag = buf[start];
  if (tag === ((4 << 3) | 1)) return start + 9 === end; // double_value
  if (tag !== 2 << 3 && tag !== 3 << 3) return false; // not bool_value or int_value
  let p = start + 1;
  while (p < end && (buf[p] as number) >= 0x80) p += 1;
  return p + 1 === end;
}

function decodeAnyValue(buf: Buf, start: number, end: number, depth = 0): OtlpAnyValue {
  if (depth > MAX_ANY_VALUE_DEPTH)
    fail(`AnyValue nested more than ${MAX_ANY_VALUE_DEPTH} levels deep (refused)`, start, 'AnyValue');
  // Fast path: the value is just a string_value (the usual case).
  const at = plainStringAt(buf, start, end);
  if (at >= 0) return new WireString(buf, at, end - at);
  // Fast path: just an int_value below 2^49 (token counts and the like): no reader, no bigint arithmetic.
  if (buf[start] === 3 << 3) {
    let v = 0;
    let scale = 1;
    for (let p = start + 1; p < end && p < start + 8; p += 1) {
      const b = buf[p] as number;
      v += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (p + 1 === end) return { type: 'int', value: BigInt(v) };
        break;
      }
      scale *= 128;
    }
  }
  const r = Reader.create(buf);
  r.pos = start;
  r.len = end;
  let value: OtlpAnyValue = EMPTY_VALUE;
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | LEN: {
        const e = subEnd(r, end, 'string_value');
        value = new WireString(buf, r.pos, e - r.pos);
        r.pos = e;
        break;
      }
      case 2 << 3:
        value = { type: 'bool', value: r.uint32() !== 0 };
        break;
      case 3 << 3:
        value = { type: 'int', value: readVarint64(r) };
        break;
      case (4 << 3) | 1:
        if (r.pos + 8 > end) fail('truncated double', r.pos, 'double_value');
        value = { type: 'double', value: buf.readDoubleLE(r.pos) };
        r.pos += 8;
        break;
      case (5 << 3) | LEN: {
        const e = subEnd(r, end, 'array_value');
        const values: OtlpAnyValue[] = [];
        while (r.pos < e) {
          const t = r.uint32();
          if (t === ((1 << 3) | LEN)) {
            const ve = subEnd(r, e, 'array_value.values');
            values.push(decodeAnyValue(buf, r.pos, ve, depth + 1));
            r.pos = ve;
          } else skipField(r, t, e, 'array_value');
        }
        value = { type: 'array', values };
        break;
      }
      case (6 << 3) | LEN: {
        const e = subEnd(r, end, 'kvlist_value');
        const values: OtlpKeyValue[] = [];
        while (r.pos < e) {
          const t = r.uint32();
          if (t === ((1 << 3) | LEN)) {
            const ve = subEnd(r, e, 'kvlist_value.values');
            values.push(decodeKeyValue(buf, r.pos, ve, depth + 1));
            r.pos = ve;
          } else skipField(r, t, e, 'kvlist_value');
        }
        value = { type: 'kvlist', values };
        break;
      }
      case (7 << 3) | LEN: {
        const e = subEnd(r, end, 'bytes_value');
        value = { type: 'bytes', value: buf.subarray(r.pos, e) };
        r.pos = e;
        break;
      }
      default:
        // string_value_strindex (profiles only) and unknown fields are ignored.
        skipField(r, tag, end, 'AnyValue');
    }
  }
  return value;
}

function decodeKeyValue(buf: Buf, start: number, end: number, depth = 0): OtlpKeyValue {
  const r = Reader.create(buf);
  r.pos = start;
  r.len = end;
  let key = '';
  let value: OtlpAnyValue = EMPTY_VALUE;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LEN)) {
      const e = subEnd(r, end, 'KeyValue.key');
      key = buf.utf8Slice(r.pos, e);
      r.pos = e;
    } else if (tag === ((2 << 3) | LEN)) {
      const e = subEnd(r, end, 'KeyValue.value');
      value = decodeAnyValue(buf, r.pos, e, depth);
      r.pos = e;
    } else skipField(r, tag, end, 'KeyValue');
  }
  return { key, value };
}

const keyBytesCache = new Map<string, Buffer>();

function keyBytes(key: string): Buffer {
  let b = keyBytesCache.get(key);
  if (b === undefined) {
    b = Buffer.from(key, 'utf8');
    if (keyBytesCache.size > 4096) keyBytesCache.clear();
    keyBytesCache.set(key, b);
  }
  return b;
}

/** Where {@link indexKeyValue} writes a key-value's quadruple: a plain array, or the request's scratch. */
interface QuadSink {
  push(keyStart: number, keyLength: number, valueStart: number, valueEnd: number): unknown;
}

/**
 * Appends `[keyStart, keyLength, valueStart, valueEnd]` for the `KeyValue` message in `[start, end)`
 * (valueStart -1 when it has no value).
 */
function indexKeyValue(buf: Buf, start: number, end: number, into: QuadSink): void {
  // Fast path: key (field 1) then value (field 2), short lengths, nothing else (what every SDK writes).
  if (buf[start] === ((1 << 3) | LEN) && start + 2 < end) {
    const kl = buf[start + 1] as number;
    const t = start + 2 + kl;
    if (kl < 0x80 && t + 1 < end && buf[t] === ((2 << 3) | LEN)) {
      let vl = buf[t + 1] as number;
      let vs = t + 2;
      if (vl >= 0x80 && vs < end) {
        const b = buf[vs] as number;
        if (b < 0x80) {
          vl = (vl & 0x7f) | (b << 7);
          vs += 1;
        } else vl = -1;
      }
      if (vl >= 0 && vs + vl === end) {
        into.push(start + 2, kl, vs, end);
        return;
      }
    }
  }
  let k = start;
  let kl = 0;
  let vs = -1;
  let ve = -1;
  let pos = start;
  while (pos < end) {
    const tag = varintAt(buf, pos, end, 'KeyValue');
    pos = cursor;
    if (tag === ((1 << 3) | LEN) || tag === ((2 << 3) | LEN)) {
      const len = varintAt(buf, pos, end, 'KeyValue');
      const at = cursor;
      if (at + len > end)
        fail('truncated or corrupt: field runs past the end of its KeyValue', pos, 'KeyValue');
      if (tag === ((1 << 3) | LEN)) {
        k = at;
        kl = len;
      } else {
        vs = at;
        ve = at + len;
      }
      pos = at + len;
    } else pos = skipAt(buf, tag & 7, pos, end, 'KeyValue');
  }
  into.push(k, kl, vs, ve);
}

/**
 * Attributes as positions of `KeyValue` messages in the request buffer: where each key and value sits
 * (found on the first read of the attributes, no string created); lookups compare key bytes; a value
 * is decoded only when asked for.
 */
class WireAttributes implements OtlpAttributes {
  readonly #buf: Buf;
  /**
   * Quadruples in `#block.data[#from, #to)`: key start, key length, value start (-1: none), value end.
   * The spans of one request share one block (one typed array outside the heap, filled in when the
   * request is decoded), so a span waiting in memory holds no index array of its own.
   */
  readonly #block: IndexBlock;
  readonly #from: number;
  readonly #to: number;
  /** Bit `length & 31` set for every key length present: most misses end here. */
  readonly #lengths: number;
  #keys: string[] | null = null;

  constructor(buf: Buf, block: IndexBlock, from: number, to: number, lengths: number) {
    this.#buf = buf;
    this.#block = block;
    this.#from = from;
    this.#to = to;
    this.#lengths = lengths;
  }

  /** Attributes over their own index (resources, scopes, events, links). */
  static of(buf: Buf, idx: readonly number[]): WireAttributes {
    return new WireAttributes(
      buf,
      { data: new Int32Array(idx) },
      0,
      idx.length,
      keyLengthBits(idx, 0, idx.length),
    );
  }

  get size(): number {
    return (this.#to - this.#from) / 4;
  }

  #find(key: string): number {
    const idx = this.#block.data;
    const kb = keyBytes(key);
    const n = kb.length;
    if ((this.#lengths & (1 << (n & 31))) === 0) return -1;
    if (n === 0) return this.#findEmpty();
    const buf = this.#buf;
    const from = this.#from;
    const last = kb[n - 1];
    // Keys of one convention share their prefix (`gen_ai.output.messages` and
    // `gen_ai.conversation.id` have one length): the last byte first rejects most at once.
    outer: for (let i = this.#to - 4; i >= from; i -= 4) {
      if (idx[i + 1] !== n) continue;
      const s = idx[i] as number;
      if (buf[s + n - 1] !== last) continue;
      for (let j = 0; j < n - 1; j += 1) if (buf[s + j] !== kb[j]) continue outer;
      return i;
    }
    return -1;
  }

  /** The last attribute with an empty key (as `#find` for `''`). */
  #findEmpty(): number {
    const idx = this.#block.data;
    for (let i = this.#to - 4; i >= this.#from; i -= 4) if (idx[i + 1] === 0) return i;
    return -1;
  }

  #value(i: number): OtlpAnyValue {
    const idx = this.#block.data;
    const s = idx[i + 2] as number;
    if (s < 0) return EMPTY_VALUE;
    return onDemand(() => decodeAnyValue(this.#buf, s, idx[i + 3] as number), s, 'KeyValue.value');
  }

  keys(): string[] {
    if (this.#keys === null) {
      const idx = this.#block.data;
      const out: string[] = [];
      for (let i = this.#from; i < this.#to; i += 4) {
        const s = idx[i] as number;
        out.push(this.#buf.utf8Slice(s, s + (idx[i + 1] as number)));
      }
      this.#keys = out;
    }
    return [...this.#keys];
  }

  has(key: string): boolean {
    return this.#find(key) >= 0;
  }

  get(key: string): OtlpAnyValue | undefined {
    const i = this.#find(key);
    return i < 0 ? undefined : this.#value(i);
  }

  getString(key: string): string | undefined {
    const i = this.#find(key);
    if (i < 0) return undefined;
    const idx = this.#block.data;
    const start = idx[i + 2] as number;
    if (start < 0) return undefined;
    const end = idx[i + 3] as number;
    // a plain string value is sliced straight from the buffer (no value object)
    const at = plainStringAt(this.#buf, start, end);
    if (at >= 0) return this.#buf.utf8Slice(at, end);
    const v = onDemand(() => decodeAnyValue(this.#buf, start, end), start, 'KeyValue.value');
    return v.type === 'string' ? v.value : undefined;
  }

  entries(): OtlpKeyValue[] {
    return this.keys().map((key, j) => ({ key, value: this.#value(this.#from + j * 4) }));
  }

  mayNest(): boolean {
    const idx = this.#block.data;
    for (let i = this.#from; i < this.#to; i += 4)
      if (!flatValue(this.#buf, idx[i + 2] as number, idx[i + 3] as number)) return true;
    return false;
  }
}

function attributesOf(buf: Buf, ranges: number[] | null): OtlpAttributes {
  if (ranges === null || ranges.length === 0) return ListAttributes.EMPTY;
  const idx: number[] = [];
  for (let i = 0; i < ranges.length; i += 2)
    indexKeyValue(buf, ranges[i] as number, ranges[i + 1] as number, idx);
  const refused = refusedValues.get(buf);
  if (refused !== undefined)
    for (let i = 2; i < idx.length; i += 4) if (refused.has(idx[i] as number)) idx[i] = -1;
  return WireAttributes.of(buf, idx);
}

/** Where a request's attribute index is: filled in once the whole request has been scanned. */
interface IndexBlock {
  data: Int32Array;
}

function keyLengthBits(idx: ArrayLike<number>, from: number, to: number): number {
  let lengths = 0;
  for (let i = from + 1; i < to; i += 4) lengths |= 1 << ((idx[i] as number) & 31);
  return lengths;
}

/**
 * The attribute index of the request being decoded: its spans' quadruples, in order, in one typed
 * array reused from request to request (a plain array grew, element by element, for every request
 * and was converted at its end: ~280 bytes of garbage per span).
 */
class IndexScratch implements QuadSink {
  data = new Int32Array(SCRATCH_KEPT_INTS);
  length = 0;

  push(keyStart: number, keyLength: number, valueStart: number, valueEnd: number): void {
    const n = this.length;
    if (n + 4 > this.data.length) this.data = grownTypedArray(this.data, this.data.length * 2);
    const data = this.data;
    data[n] = keyStart;
    data[n + 1] = keyLength;
    data[n + 2] = valueStart;
    data[n + 3] = valueEnd;
    this.length = n + 4;
  }

  /** The quadruples so far, copied out; the scratch starts over (a very large one is let go). */
  take(): Int32Array {
    const out = this.data.slice(0, this.length);
    this.length = 0;
    if (this.data.length > SCRATCH_KEPT_INTS * 64) this.data = new Int32Array(SCRATCH_KEPT_INTS);
    return out;
  }
}

/** A problem found while the request is scanned, kept until its span's ids can be read. */
interface PendingIssue {
  span: OtlpSpan;
  code: OtlpSpanIssue['code'];
  field: string;
  offset: number;
}

/** Problems of the request being decoded with `checkValues`; null when not checking. */
let checking: PendingIssue[] | null = null;

/**
 * Checks the attribute just indexed (the last quadruple of `requestIndex`): a key or string that is
 * not UTF-8 is noted; a value nested past `MAX_ANY_VALUE_DEPTH` is noted and refused (its value
 * position cleared, so it reads as empty and no reader recurses into it).
 */
function checkLastAttribute(buf: Buf, span: OtlpSpan, into: PendingIssue[]): void {
  const n = requestIndex.length;
  const data = requestIndex.data;
  const keyStart = data[n - 4] as number;
  const keyEnd = keyStart + (data[n - 3] as number);
  const valueStart = data[n - 2] as number;
  const badKey = firstInvalidUtf8(buf, keyStart, keyEnd);
  if (badKey >= 0) {
    const key = buf.utf8Slice(keyStart, keyEnd);
    into.push({ span, code: 'invalid_utf8', field: `Span.attributes key '${key}'`, offset: badKey });
  }
  if (valueStart < 0) return;
  const problem = checkWireValue(buf, valueStart, data[n - 1] as number);
  if (problem === null) return;
  const key = buf.utf8Slice(keyStart, keyEnd);
  into.push({ span, code: problem.code, field: `Span.attributes['${key}']`, offset: problem.offset });
  if (problem.code === 'nesting_too_deep') data[n - 2] = -1;
}

/**
 * Notes each string of the message in `[start, end)` that is not UTF-8 (see `layout`), and each
 * attribute value nested past `MAX_ANY_VALUE_DEPTH`, against `spans`: one span, or each of a list (a
 * resource's or scope's attributes belong to all its spans), made only when there is a problem; a
 * value nested too deep is refused (see `refusedValues`).
 */
function checkMessage(
  buf: Buf,
  start: number,
  end: number,
  layout: MessageStrings,
  spans: OtlpSpan | readonly OtlpSpan[] | (() => readonly OtlpSpan[]),
  into: PendingIssue[],
): void {
  const problems = wireMessageProblems(buf, start, end, layout);
  if (problems.length === 0) return;
  const list = typeof spans === 'function' ? spans() : Array.isArray(spans) ? spans : [spans as OtlpSpan];
  for (const found of problems) {
    if (found.valueStart >= 0) {
      let refused = refusedValues.get(buf);
      if (refused === undefined) refusedValues.set(buf, (refused = new Set()));
      refused.add(found.valueStart);
    }
    for (const span of list) into.push({ span, code: found.code, field: found.field, offset: found.offset });
  }
}

/**
 * Where the attribute values of resources, scopes, events and links refused for their depth start,
 * by request buffer: their attributes are indexed when first read, and such a value is then indexed
 * as absent (read as empty), as a span's own refused attribute is.
 */
const refusedValues = new WeakMap<Buf, Set<number>>();

const RESOURCE_STRINGS: MessageStrings = { name: 'Resource', strings: {}, attributes: 1 };
const SCOPE_STRINGS: MessageStrings = {
  name: 'InstrumentationScope',
  strings: { 1: 'name', 2: 'version' },
  attributes: 3,
};
const STATUS_STRINGS: MessageStrings = { name: 'Span.status', strings: { 2: 'message' }, attributes: 0 };
const eventStrings = (i: number): MessageStrings => ({
  name: `Span.events[${i}]`,
  strings: { 2: 'name' },
  attributes: 3,
});
const linkStrings = (i: number): MessageStrings => ({
  name: `Span.links[${i}]`,
  strings: { 3: 'trace_state' },
  attributes: 4,
});

function issueOf(p: PendingIssue): OtlpSpanIssue {
  const where = p.field.startsWith('Span.attributes[') ? `attribute ${p.field.slice(16, -1)}` : p.field;
  return {
    code: p.code,
    traceId: p.span.traceId,
    spanId: p.span.spanId,
    field: p.field,
    message:
      p.code === 'invalid_utf8'
        ? `${where}: bytes that are not UTF-8, read as U+FFFD`
        : `${where} nested more than ${MAX_ANY_VALUE_DEPTH} levels deep: value refused (read as empty)`,
    offset: p.offset,
  };
}

/** The scratch's size to start with and to go back to (64 times this is kept between requests). */
const SCRATCH_KEPT_INTS = 16384;
const requestIndex = new IndexScratch();
let requestBlock: IndexBlock = { data: new Int32Array(0) };

/** Visits the fields of the message in `[start, end)`; fields `visit` does not take are skipped. */
function scanLazy(
  buf: Buf,
  start: number,
  end: number,
  visit: (tag: number, r: Reader, end: number) => boolean,
): void {
  const r = Reader.create(buf);
  r.pos = start;
  r.len = end;
  try {
    while (r.pos < end) {
      const tag = r.uint32();
      if (!visit(tag, r, end)) skipField(r, tag, end, 'message');
    }
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw error;
    fail(`truncated or corrupt: ${(error as Error).message}`, r.pos, 'message');
  }
}

function readString(r: Reader, end: number, field: string): string {
  const e = subEnd(r, end, field);
  const s = (r.buf as Buf).utf8Slice(r.pos, e);
  r.pos = e;
  return s;
}

function readRange(r: Reader, end: number, field: string, into: number[]): void {
  const e = subEnd(r, end, field);
  into.push(r.pos, e);
  r.pos = e;
}

class WireResource implements OtlpResource {
  readonly #buf: Buf;
  readonly #start: number;
  readonly #end: number;
  #attributes: OtlpAttributes | null = null;
  #dropped = 0;

  constructor(buf: Buf, start: number, end: number) {
    this.#buf = buf;
    this.#start = start;
    this.#end = end;
  }

  #load(): OtlpAttributes {
    if (this.#attributes === null) {
      const ranges: number[] = [];
      scanLazy(this.#buf, this.#start, this.#end, (tag, r, end) => {
        if (tag === ((1 << 3) | LEN)) readRange(r, end, 'Resource.attributes', ranges);
        else if (tag === 2 << 3) this.#dropped = r.uint32();
        else return false;
        return true;
      });
      this.#attributes = attributesOf(this.#buf, ranges.length === 0 ? null : ranges);
    }
    return this.#attributes;
  }

  get attributes(): OtlpAttributes {
    return this.#load();
  }

  get droppedAttributesCount(): number {
    this.#load();
    return this.#dropped;
  }
}

const EMPTY_RESOURCE: OtlpResource = { attributes: ListAttributes.EMPTY, droppedAttributesCount: 0 };
const EMPTY_SCOPE: OtlpScope = {
  name: '',
  version: '',
  attributes: ListAttributes.EMPTY,
  droppedAttributesCount: 0,
};

class WireScope implements OtlpScope {
  readonly #buf: Buf;
  readonly #start: number;
  readonly #end: number;
  #loaded = false;
  #name = '';
  #version = '';
  #attributes: OtlpAttributes = ListAttributes.EMPTY;
  #dropped = 0;

  constructor(buf: Buf, start: number, end: number) {
    this.#buf = buf;
    this.#start = start;
    this.#end = end;
  }

  #load(): void {
    if (this.#loaded) return;
    const ranges: number[] = [];
    scanLazy(this.#buf, this.#start, this.#end, (tag, r, end) => {
      if (tag === ((1 << 3) | LEN)) this.#name = readString(r, end, 'InstrumentationScope.name');
      else if (tag === ((2 << 3) | LEN)) this.#version = readString(r, end, 'InstrumentationScope.version');
      else if (tag === ((3 << 3) | LEN)) readRange(r, end, 'InstrumentationScope.attributes', ranges);
      else if (tag === 4 << 3) this.#dropped = r.uint32();
      else return false;
      return true;
    });
    this.#attributes = attributesOf(this.#buf, ranges.length === 0 ? null : ranges);
    this.#loaded = true;
  }

  get name(): string {
    this.#load();
    return this.#name;
  }
  get version(): string {
    this.#load();
    return this.#version;
  }
  get attributes(): OtlpAttributes {
    this.#load();
    return this.#attributes;
  }
  get droppedAttributesCount(): number {
    this.#load();
    return this.#dropped;
  }
}

function decodeEvent(buf: Buf, start: number, end: number): OtlpSpanEvent {
  let time = -1;
  let name = '';
  let dropped = 0;
  const ranges: number[] = [];
  scanLazy(buf, start, end, (tag, r, e) => {
    if (tag === ((1 << 3) | 1)) {
      if (r.pos + 8 > e) fail('truncated fixed64', r.pos, 'Event.time_unix_nano');
      time = r.pos;
      r.pos += 8;
    } else if (tag === ((2 << 3) | LEN)) name = readString(r, e, 'Event.name');
    else if (tag === ((3 << 3) | LEN)) readRange(r, e, 'Event.attributes', ranges);
    else if (tag === 4 << 3) dropped = r.uint32();
    else return false;
    return true;
  });
  return {
    timeUnixNano: readFixed64(buf, time),
    name,
    attributes: attributesOf(buf, ranges.length === 0 ? null : ranges),
    droppedAttributesCount: dropped,
  };
}

function decodeLink(buf: Buf, start: number, end: number): OtlpSpanLink {
  let traceId = '';
  let spanId = '';
  let traceState = '';
  let dropped = 0;
  let flags = 0;
  const ranges: number[] = [];
  scanLazy(buf, start, end, (tag, r, e) => {
    if (tag === ((1 << 3) | LEN) || tag === ((2 << 3) | LEN)) {
      const stop = subEnd(r, e, 'Link.id');
      const hex = buf.hexSlice(r.pos, stop);
      if (tag >>> 3 === 1) traceId = hex;
      else spanId = hex;
      r.pos = stop;
    } else if (tag === ((3 << 3) | LEN)) traceState = readString(r, e, 'Link.trace_state');
    else if (tag === ((4 << 3) | LEN)) readRange(r, e, 'Link.attributes', ranges);
    else if (tag === 5 << 3) dropped = r.uint32();
    else if (tag === ((6 << 3) | 5)) flags = r.fixed32();
    else return false;
    return true;
  });
  return {
    traceId,
    spanId,
    traceState,
    attributes: attributesOf(buf, ranges.length === 0 ? null : ranges),
    droppedAttributesCount: dropped,
    flags,
  };
}

const STATUS_UNSET: OtlpStatus = { code: 0, message: '' };

/** Where the last `varintAt` stopped (module state: the decoder is synchronous and not reentrant). */
let cursor = 0;

/** Reads a varint (up to 32 bits) at `pos` without passing `end`; sets `cursor` after it. */
function varintAt(buf: Buf, pos: number, end: number, field: string): number {
  let b = buf[pos] as number;
  if (pos < end && b < 0x80) {
    cursor = pos + 1;
    return b;
  }
  let v = 0;
  let shift = 0;
  for (let p = pos; ; p += 1) {
    if (p >= end || shift > 28) fail('truncated or corrupt varint', pos, field);
    b = buf[p] as number;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      cursor = p + 1;
      return v >>> 0;
    }
    shift += 7;
  }
}

/** Skips a field of wire type `wt` at `pos` within `end`; returns the position after it. */
function skipAt(buf: Buf, wt: number, pos: number, end: number, field: string): number {
  let next: number;
  switch (wt) {
    case 0:
      varintAt64(buf, pos, end, field);
      return cursor;
    case 1:
      next = pos + 8;
      break;
    case 2:
      next = varintAt(buf, pos, end, field);
      next += cursor;
      break;
    case 5:
      next = pos + 4;
      break;
    default:
      return fail(`unsupported wire type ${wt}`, pos, field);
  }
  if (next > end) fail('truncated or corrupt: field runs past the end of its message', pos, field);
  return next;
}

/** Skips a varint of up to 64 bits; sets `cursor`. */
function varintAt64(buf: Buf, pos: number, end: number, field: string): void {
  for (let p = pos; p < pos + 10; p += 1) {
    if (p >= end) break;
    if ((buf[p] as number) < 0x80) {
      cursor = p + 1;
      return;
    }
  }
  fail('truncated or corrupt varint', pos, field);
}

/** Collects the `[start, end)` ranges of every field `tag` (a length-delimited field) of a message. */
function rangesOf(buf: Buf, start: number, end: number, tag: number): number[] | null {
  let out: number[] | null = null;
  let pos = start;
  while (pos < end) {
    const t = varintAt(buf, pos, end, 'Span');
    pos = cursor;
    if (t === tag) {
      const len = varintAt(buf, pos, end, 'Span');
      (out ??= []).push(cursor, cursor + len);
      pos = cursor + len;
    } else pos = skipAt(buf, t & 7, pos, end, 'Span');
  }
  return out;
}

/**
 * A span scanned once, at decode time, for the positions of its scalar fields (the scan also checks
 * that every field fits in the span); attributes, events and links are located again, and every value
 * decoded, only when first read.
 */
class WireSpan implements OtlpSpan {
  readonly #buf: Buf;
  readonly #start: number;
  readonly #end: number;
  #tid = 0;
  #tidLen = 0;
  #sid = 0;
  #sidLen = 0;
  #pid = 0;
  #pidLen = 0;
  #ts = 0;
  #tsLen = 0;
  #nm = 0;
  #nmLen = 0;
  #t0 = -1;
  #t1 = -1;
  #status = -1;
  #statusLen = 0;
  /** Bit 1: the span has events; bit 2: links (most spans have neither: no second scan then). */
  #extras = 0;
  readonly kind: number = 0;
  readonly flags: number = 0;
  readonly droppedAttributesCount: number = 0;
  readonly droppedEventsCount: number = 0;
  readonly droppedLinksCount: number = 0;
  readonly resource: OtlpResource;
  scope: OtlpScope = EMPTY_SCOPE;
  #traceId: string | null = null;
  #spanId: string | null = null;
  #parentSpanId: string | null = null;
  #name: string | null = null;
  #startValue: bigint | null = null;
  #endValue: bigint | null = null;
  #attributes: OtlpAttributes | null = null;
  #statusValue: OtlpStatus | null = null;

  constructor(buf: Buf, start: number, end: number, resource: OtlpResource) {
    this.#buf = buf;
    this.#start = start;
    this.#end = end;
    this.resource = resource;
    let kind = 0;
    let flags = 0;
    let droppedA = 0;
    let droppedE = 0;
    let droppedL = 0;
    let pos = start;
    let events = 0;
    let links = 0;
    const attributesFrom = requestIndex.length;
    while (pos < end) {
      const tag = varintAt(buf, pos, end, 'Span');
      pos = cursor;
      if ((tag & 7) === LEN) {
        const len = varintAt(buf, pos, end, 'Span');
        const at = cursor;
        if (at + len > end)
          fail('truncated or corrupt: field runs past the end of the span', pos, `Span field ${tag >>> 3}`);
        switch (tag) {
          case T_SPAN_TRACE_ID:
            this.#tid = at;
            this.#tidLen = len;
            break;
          case T_SPAN_SPAN_ID:
            this.#sid = at;
            this.#sidLen = len;
            break;
          case T_SPAN_PARENT:
            this.#pid = at;
            this.#pidLen = len;
            break;
          case T_SPAN_NAME:
            this.#nm = at;
            this.#nmLen = len;
            break;
          case T_SPAN_TRACE_STATE:
            this.#ts = at;
            this.#tsLen = len;
            break;
          case T_SPAN_STATUS:
            this.#status = at;
            this.#statusLen = len;
            break;
          case T_SPAN_ATTRIBUTES:
            // indexed now, while the bytes are in cache (attributes are read long after decoding,
            // once the grouping window has passed); values are still decoded only when read
            indexKeyValue(buf, at, at + len, requestIndex);
            if (checking !== null) checkLastAttribute(buf, this, checking);
            break;
          case T_SPAN_EVENTS:
            if (checking !== null) checkMessage(buf, at, at + len, eventStrings(events), this, checking);
            events += 1;
            break;
          case T_SPAN_LINKS:
            if (checking !== null) checkMessage(buf, at, at + len, linkStrings(links), this, checking);
            links += 1;
            break;
          default:
          // events, links (located again when read) and unknown fields
        }
        pos = at + len;
        continue;
      }
      switch (tag) {
        case T_SPAN_START:
        case T_SPAN_END:
          if (pos + 8 > end) fail('truncated fixed64', pos, 'Span time');
          if (tag === T_SPAN_START) this.#t0 = pos;
          else this.#t1 = pos;
          pos += 8;
          break;
        case T_SPAN_KIND:
          kind = varintAt(buf, pos, end, 'Span.kind');
          pos = cursor;
          break;
        case T_SPAN_DROPPED_ATTRS:
          droppedA = varintAt(buf, pos, end, 'Span.dropped_attributes_count');
          pos = cursor;
          break;
        case T_SPAN_DROPPED_EVENTS:
          droppedE = varintAt(buf, pos, end, 'Span.dropped_events_count');
          pos = cursor;
          break;
        case T_SPAN_DROPPED_LINKS:
          droppedL = varintAt(buf, pos, end, 'Span.dropped_links_count');
          pos = cursor;
          break;
        case T_SPAN_FLAGS:
          if (pos + 4 > end) fail('truncated fixed32', pos, 'Span.flags');
          flags = buf.readUInt32LE(pos);
          pos += 4;
          break;
        default:
          pos = skipAt(buf, tag & 7, pos, end, 'Span');
      }
    }
    if (checking !== null) {
      const bad = this.#nmLen > 0 ? firstInvalidUtf8(buf, this.#nm, this.#nm + this.#nmLen) : -1;
      if (bad >= 0) checking.push({ span: this, code: 'invalid_utf8', field: 'Span.name', offset: bad });
      const badState = this.#tsLen > 0 ? firstInvalidUtf8(buf, this.#ts, this.#ts + this.#tsLen) : -1;
      if (badState >= 0)
        checking.push({ span: this, code: 'invalid_utf8', field: 'Span.trace_state', offset: badState });
      if (this.#statusLen > 0)
        checkMessage(buf, this.#status, this.#status + this.#statusLen, STATUS_STRINGS, this, checking);
    }
    if (requestIndex.length > attributesFrom) {
      const to = requestIndex.length;
      this.#attributes = new WireAttributes(
        buf,
        requestBlock,
        attributesFrom,
        to,
        keyLengthBits(requestIndex.data, attributesFrom, to),
      );
    }
    this.#extras = (events > 0 ? 1 : 0) | (links > 0 ? 2 : 0);
    this.kind = kind;
    this.flags = flags;
    this.droppedAttributesCount = droppedA;
    this.droppedEventsCount = droppedE;
    this.droppedLinksCount = droppedL;
  }

  /**
   * Takes `previous`'s trace id string when the bytes are the same (spans of a request mostly share
   * one trace; grouping reads every span's trace id), so one hex string is made per trace and request.
   */
  shareTraceId(previous: WireSpan): void {
    if (previous.#tidLen !== this.#tidLen || previous.#buf !== this.#buf) return;
    const buf = this.#buf;
    const a = previous.#tid;
    const b = this.#tid;
    for (let j = 0; j < this.#tidLen; j += 1) if (buf[a + j] !== buf[b + j]) return;
    this.#traceId = previous.traceId;
  }

  get traceId(): string {
    this.#traceId ??= this.#tidLen === 0 ? '' : this.#buf.hexSlice(this.#tid, this.#tid + this.#tidLen);
    return this.#traceId;
  }
  get spanId(): string {
    this.#spanId ??= this.#sidLen === 0 ? '' : this.#buf.hexSlice(this.#sid, this.#sid + this.#sidLen);
    return this.#spanId;
  }
  get parentSpanId(): string {
    this.#parentSpanId ??= this.#pidLen === 0 ? '' : this.#buf.hexSlice(this.#pid, this.#pid + this.#pidLen);
    return this.#parentSpanId;
  }
  get traceState(): string {
    return this.#tsLen === 0 ? '' : this.#buf.utf8Slice(this.#ts, this.#ts + this.#tsLen);
  }
  get name(): string {
    this.#name ??= this.#nmLen === 0 ? '' : this.#buf.utf8Slice(this.#nm, this.#nm + this.#nmLen);
    return this.#name;
  }
  get startTimeUnixNano(): bigint {
    this.#startValue ??= readFixed64(this.#buf, this.#t0);
    return this.#startValue;
  }
  get endTimeUnixNano(): bigint {
    this.#endValue ??= readFixed64(this.#buf, this.#t1);
    return this.#endValue;
  }
  get attributes(): OtlpAttributes {
    return this.#attributes ?? ListAttributes.EMPTY;
  }
  get events(): OtlpSpanEvent[] {
    const r = (this.#extras & 1) === 0 ? null : rangesOf(this.#buf, this.#start, this.#end, T_SPAN_EVENTS);
    if (r === null) return [];
    const out: OtlpSpanEvent[] = [];
    for (let i = 0; i < r.length; i += 2) {
      const at = r[i] as number;
      out.push(onDemand(() => decodeEvent(this.#buf, at, r[i + 1] as number), at, 'Span.events'));
    }
    return out;
  }
  get links(): OtlpSpanLink[] {
    const r = (this.#extras & 2) === 0 ? null : rangesOf(this.#buf, this.#start, this.#end, T_SPAN_LINKS);
    if (r === null) return [];
    const out: OtlpSpanLink[] = [];
    for (let i = 0; i < r.length; i += 2) {
      const at = r[i] as number;
      out.push(onDemand(() => decodeLink(this.#buf, at, r[i + 1] as number), at, 'Span.links'));
    }
    return out;
  }
  get status(): OtlpStatus {
    if (this.#status < 0) return STATUS_UNSET;
    if (this.#statusValue !== null) return this.#statusValue;
    const buf = this.#buf;
    const at = this.#status;
    // Fast paths: an empty status, or only a small `code` varint.
    if (this.#statusLen === 0) return (this.#statusValue = STATUS_UNSET);
    if (this.#statusLen === 2 && buf[at] === 3 << 3 && (buf[at + 1] as number) < 0x80) {
      const c = buf[at + 1] as number;
      return (this.#statusValue = c === 0 ? STATUS_UNSET : { code: c, message: '' });
    }
    this.#statusValue = this.#decodeStatus();
    return this.#statusValue;
  }

  #decodeStatus(): OtlpStatus {
    let code = 0;
    let message = '';
    scanLazy(this.#buf, this.#status, this.#status + this.#statusLen, (tag, r, e) => {
      if (tag === ((2 << 3) | LEN)) message = readString(r, e, 'Status.message');
      else if (tag === 3 << 3) code = r.uint32();
      else return false;
      return true;
    });
    return code === 0 && message === '' ? STATUS_UNSET : { code, message };
  }
}

function readScopeSpans(r: Reader, end: number, resource: OtlpResource): OtlpScopeSpans {
  const buf = r.buf as Buf;
  let scope: OtlpScope = EMPTY_SCOPE;
  const spans: WireSpan[] = [];
  let schemaUrl = '';
  let scopeStart = -1;
  let scopeEnd = -1;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === T_SS_SPANS) {
      const e = subEnd(r, end, 'ScopeSpans.spans');
      const span = new WireSpan(buf, r.pos, e, resource);
      if (spans.length > 0) span.shareTraceId(spans[spans.length - 1] as WireSpan);
      spans.push(span);
      r.pos = e;
    } else if (tag === T_SS_SCOPE) {
      const e = subEnd(r, end, 'ScopeSpans.scope');
      scope = new WireScope(buf, r.pos, e);
      scopeStart = r.pos;
      scopeEnd = e;
      r.pos = e;
    } else if (tag === T_SS_SCHEMA_URL) schemaUrl = readString(r, end, 'ScopeSpans.schema_url');
    else skipField(r, tag, end, 'ScopeSpans');
  }
  for (const s of spans) s.scope = scope;
  if (checking !== null && scopeStart >= 0)
    checkMessage(buf, scopeStart, scopeEnd, SCOPE_STRINGS, spans, checking);
  return { scope, spans, schemaUrl };
}

/**
 * The resource of a ResourceSpans as its spans see it: set once it is read, which may be after the
 * spans (the resource may follow them on the wire).
 */
class HeldResource implements OtlpResource {
  resource: OtlpResource = EMPTY_RESOURCE;

  get attributes(): OtlpAttributes {
    return this.resource.attributes;
  }

  get droppedAttributesCount(): number {
    return this.resource.droppedAttributesCount;
  }
}

function readResourceSpans(r: Reader, end: number): OtlpResourceSpans {
  const buf = r.buf as Buf;
  const scopeSpans: OtlpScopeSpans[] = [];
  let schemaUrl = '';
  let resourceStart = -1;
  let resourceEnd = -1;
  // The resource may follow the scope spans on the wire; spans get it through this holder.
  const lazyResource = new HeldResource();
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === T_RS_SCOPE_SPANS) {
      const e = subEnd(r, end, 'ResourceSpans.scope_spans');
      const outer = bounded(r, e);
      scopeSpans.push(readScopeSpans(r, e, lazyResource));
      r.len = outer;
    } else if (tag === T_RS_RESOURCE) {
      const e = subEnd(r, end, 'ResourceSpans.resource');
      lazyResource.resource = new WireResource(buf, r.pos, e);
      resourceStart = r.pos;
      resourceEnd = e;
      r.pos = e;
    } else if (tag === T_RS_SCHEMA_URL) schemaUrl = readString(r, end, 'ResourceSpans.schema_url');
    else skipField(r, tag, end, 'ResourceSpans');
  }
  if (checking !== null && resourceStart >= 0) {
    const spans = (): OtlpSpan[] => scopeSpans.flatMap((ss) => ss.spans);
    checkMessage(buf, resourceStart, resourceEnd, RESOURCE_STRINGS, spans, checking);
  }
  return { resource: lazyResource, scopeSpans, schemaUrl };
}

/*
 * The logs side (`ExportLogsServiceRequest`): ResourceLogs and ScopeLogs use the field numbers of
 * ResourceSpans and ScopeSpans; log records are fewer than spans, so each is scanned into its scalar
 * fields at decode time and only its body and attribute values wait until read.
 */
const T_RL_SCOPE_LOGS = (2 << 3) | LEN;
const T_SL_LOG_RECORDS = (2 << 3) | LEN;
const T_LOG_TIME = (1 << 3) | 1;
const T_LOG_SEVERITY_NUMBER = 2 << 3;
const T_LOG_SEVERITY_TEXT = (3 << 3) | LEN;
const T_LOG_BODY = (5 << 3) | LEN;
const T_LOG_ATTRIBUTES = (6 << 3) | LEN;
const T_LOG_DROPPED_ATTRS = 7 << 3;
const T_LOG_FLAGS = (8 << 3) | 5;
const T_LOG_TRACE_ID = (9 << 3) | LEN;
const T_LOG_SPAN_ID = (10 << 3) | LEN;
const T_LOG_OBSERVED_TIME = (11 << 3) | 1;
const T_LOG_EVENT_NAME = (12 << 3) | LEN;

/** A log record scanned at decode time; its body and attribute values are decoded when first read. */
class WireLogRecord implements OtlpLogRecord {
  readonly traceId: string = '';
  readonly spanId: string = '';
  readonly timeUnixNano: bigint = 0n;
  readonly observedTimeUnixNano: bigint = 0n;
  readonly severityNumber: number = 0;
  readonly severityText: string = '';
  readonly attributes: OtlpAttributes;
  readonly droppedAttributesCount: number = 0;
  readonly flags: number = 0;
  readonly resource: OtlpResource;
  scope: OtlpScope = EMPTY_SCOPE;
  readonly #buf: Buf;
  readonly #bodyStart: number = -1;
  readonly #bodyEnd: number = -1;
  #eventName: string | null = null;
  #body: OtlpAnyValue | null = null;

  constructor(buf: Buf, start: number, end: number, resource: OtlpResource) {
    this.#buf = buf;
    this.resource = resource;
    const attributeRanges: number[] = [];
    let time = -1;
    let observed = -1;
    let pos = start;
    while (pos < end) {
      const tag = varintAt(buf, pos, end, 'LogRecord');
      pos = cursor;
      switch (tag) {
        case T_LOG_TIME:
        case T_LOG_OBSERVED_TIME:
          if (pos + 8 > end) fail('truncated fixed64', pos, 'LogRecord time');
          if (tag === T_LOG_TIME) time = pos;
          else observed = pos;
          pos += 8;
          break;
        case T_LOG_SEVERITY_NUMBER:
          this.severityNumber = varintAt(buf, pos, end, 'LogRecord.severity_number');
          pos = cursor;
          break;
        case T_LOG_DROPPED_ATTRS:
          this.droppedAttributesCount = varintAt(buf, pos, end, 'LogRecord.dropped_attributes_count');
          pos = cursor;
          break;
        case T_LOG_FLAGS:
          if (pos + 4 > end) fail('truncated fixed32', pos, 'LogRecord.flags');
          this.flags = buf.readUInt32LE(pos);
          pos += 4;
          break;
        default: {
          if ((tag & 7) !== LEN) {
            pos = skipAt(buf, tag & 7, pos, end, 'LogRecord');
            break;
          }
          const len = varintAt(buf, pos, end, 'LogRecord');
          const at = cursor;
          if (at + len > end)
            fail(
              'truncated or corrupt: field runs past the end of the log record',
              pos,
              `LogRecord field ${tag >>> 3}`,
            );
          if (tag === T_LOG_TRACE_ID) this.traceId = buf.hexSlice(at, at + len);
          else if (tag === T_LOG_SPAN_ID) this.spanId = buf.hexSlice(at, at + len);
          else if (tag === T_LOG_SEVERITY_TEXT) this.severityText = buf.utf8Slice(at, at + len);
          else if (tag === T_LOG_EVENT_NAME) this.#eventName = len === 0 ? null : buf.utf8Slice(at, at + len);
          else if (tag === T_LOG_ATTRIBUTES) attributeRanges.push(at, at + len);
          else if (tag === T_LOG_BODY) {
            this.#bodyStart = at;
            this.#bodyEnd = at + len;
          }
          pos = at + len;
        }
      }
    }
    this.observedTimeUnixNano = readFixed64(buf, observed);
    const t = readFixed64(buf, time);
    this.timeUnixNano = t === 0n ? this.observedTimeUnixNano : t;
    this.attributes = attributesOf(buf, attributeRanges);
  }

  get eventName(): string {
    this.#eventName ??=
      this.attributes.getString('event.name') ?? this.attributes.getString('otel.event.name') ?? '';
    return this.#eventName;
  }

  get body(): OtlpAnyValue {
    if (this.#body === null) {
      const [s, e] = [this.#bodyStart, this.#bodyEnd];
      this.#body = s < 0 ? EMPTY_VALUE : onDemand(() => decodeAnyValue(this.#buf, s, e), s, 'LogRecord.body');
    }
    return this.#body;
  }
}

/** The `[start, end)` of each length-delimited field `tag` of the message in `[start, end)`. */
function fieldRanges(buf: Buf, start: number, end: number, tag: number, message: string): number[] {
  const out: number[] = [];
  let pos = start;
  while (pos < end) {
    const t = varintAt(buf, pos, end, message);
    pos = cursor;
    if (t !== tag) {
      pos = skipAt(buf, t & 7, pos, end, message);
      continue;
    }
    const len = varintAt(buf, pos, end, message);
    if (cursor + len > end)
      fail(`truncated or corrupt: field runs past the end of its ${message}`, pos, message);
    out.push(cursor, cursor + len);
    pos = cursor + len;
  }
  return out;
}

/** Appends the log records of the `ResourceLogs` in `[start, end)` to `out`. */
function readResourceLogs(buf: Buf, start: number, end: number, out: OtlpLogRecord[]): void {
  const resources = fieldRanges(buf, start, end, T_RS_RESOURCE, 'ResourceLogs');
  const rs = resources.length - 2;
  // the last resource field wins, wherever it stands among the scope logs
  const resource: OtlpResource =
    rs < 0 ? EMPTY_RESOURCE : new WireResource(buf, resources[rs] as number, resources[rs + 1] as number);
  const scopes = fieldRanges(buf, start, end, T_RL_SCOPE_LOGS, 'ResourceLogs');
  for (let i = 0; i < scopes.length; i += 2) {
    const s = scopes[i] as number;
    const e = scopes[i + 1] as number;
    const scopeRanges = fieldRanges(buf, s, e, T_SS_SCOPE, 'ScopeLogs');
    const sc = scopeRanges.length - 2;
    const scope =
      sc < 0 ? EMPTY_SCOPE : new WireScope(buf, scopeRanges[sc] as number, scopeRanges[sc + 1] as number);
    const records = fieldRanges(buf, s, e, T_SL_LOG_RECORDS, 'ScopeLogs');
    for (let j = 0; j < records.length; j += 2) {
      const record = new WireLogRecord(buf, records[j] as number, records[j + 1] as number, resource);
      record.scope = scope;
      out.push(record);
    }
  }
}

/** Fields whose wire type exists only in a `LogRecord` (as tags), not in a `Span` under the same number. */
const LOG_RECORD_ONLY_TAGS = new Set([
  T_LOG_TIME,
  T_LOG_SEVERITY_NUMBER,
  T_LOG_ATTRIBUTES,
  T_LOG_DROPPED_ATTRS,
  T_LOG_FLAGS,
  T_LOG_SPAN_ID,
  T_LOG_OBSERVED_TIME,
  T_LOG_EVENT_NAME,
]);

/**
 * What the record in `[start, end)` is: `logs` at its first field that only a `LogRecord` has (with
 * that wire type), `traces` at its first that only a `Span` has; null when it tells neither (only
 * fields 3, 5 and 9, length-delimited in both).
 */
function recordKind(buf: Buf, start: number, end: number): 'logs' | 'traces' | null {
  let pos = start;
  while (pos < end) {
    const tag = varintAt(buf, pos, end, 'record');
    pos = cursor;
    if (LOG_RECORD_ONLY_TAGS.has(tag)) return 'logs';
    const field = tag >>> 3;
    if (field >= 1 && field <= 16 && field !== 3 && field !== 5 && field !== 9) return 'traces';
    pos = skipAt(buf, tag & 7, pos, end, 'record');
  }
  return null;
}

/** The kind of the first telling record under the message in `[start, end)` at `depth` (0: the request). */
function requestKind(buf: Buf, start: number, end: number, depth: number): 'logs' | 'traces' | null {
  const want = depth === 0 ? T_REQ_RESOURCE_SPANS : T_RS_SCOPE_SPANS;
  let pos = start;
  while (pos < end) {
    const tag = varintAt(buf, pos, end, 'request');
    pos = cursor;
    if (tag !== want) {
      pos = skipAt(buf, tag & 7, pos, end, 'request');
      continue;
    }
    const len = varintAt(buf, pos, end, 'request');
    const at = cursor;
    if (at + len > end) return null;
    const kind = depth === 2 ? recordKind(buf, at, at + len) : requestKind(buf, at, at + len, depth + 1);
    if (kind !== null) return kind;
    pos = at + len;
  }
  return null;
}

/**
 * Whether a request of unknown kind (a frame of a file the Collector wrote both traces and logs to)
 * is an `ExportLogsServiceRequest`. Both requests nest resource → scope → record under the same field
 * numbers, but a `LogRecord`'s fields differ from a `Span`'s in wire type (its field 1 is the fixed64
 * time where a span has its trace id bytes, …): the first record with a telling field decides. A
 * request none of whose records tells, or that does not scan, is read as traces.
 */
function isLogsRequest(buf: Buf): boolean {
  try {
    return requestKind(buf, 0, buf.length, 0) === 'logs';
  } catch {
    return false;
  }
}

/**
 * Decodes one binary `ExportTraceServiceRequest` (or `TracesData`, the same field 1) without
 * materialising what nobody reads: the message structure down to span fields is scanned (so a
 * truncated or corrupt payload fails here, with its byte offset); ids become lowercase hex, names and
 * attribute values are decoded on first read, large strings stay slices of `bytes` until read. The
 * returned objects keep `bytes` alive; do not mutate it. With `checkValues`, every string of a span
 * (name, trace state, status message, attribute keys and values, its events' and links' names, trace
 * states and attributes) and of its resource and scope is also checked as it is scanned (no value
 * decoded; a resource's or scope's problem is noted on each of its spans): bytes that are not UTF-8
 * and values nested more than `MAX_ANY_VALUE_DEPTH` levels become `issues` (payload offsets), the
 * latter refused by themselves (read as empty); without it such a value fails when it is read.
 * `signal` `logs` reads an `ExportLogsServiceRequest` (or `LogsData`) into `logRecords` instead;
 * `auto` tells the two apart by the wire types of the first record's fields (see `docs/otlp.md`).
 *
 * @example
 * const req = decodeOtlpProtobuf(readFileSync('export.binpb'));
 * for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) s.name;
 * // throws OtlpDecodeError('truncated or corrupt: … at byte 1234 (Span.attributes)') on bad input
 * decodeOtlpProtobuf(logsBody, { signal: 'logs' }).logRecords[0]?.eventName; // 'gen_ai.evaluation.result'
 */
export function decodeOtlpProtobuf(
  bytes: Uint8Array,
  options: { checkValues?: boolean; signal?: 'traces' | 'logs' | 'auto' } = {},
): OtlpExportRequest {
  // protobuf messages are limited to 2 GiB, and the attribute index keeps positions in an Int32Array
  if (bytes.length > 0x7fffffff)
    throw new OtlpDecodeError(`message of ${bytes.length} bytes: over protobuf's 2 GiB limit`, { offset: 0 });
  const buf = asBuf(bytes);
  const r = Reader.create(buf);
  const end = buf.length;
  const resourceSpans: OtlpResourceSpans[] = [];
  const logRecords: OtlpLogRecord[] = [];
  const signal = options.signal ?? 'traces';
  const logs = signal === 'logs' || (signal === 'auto' && isLogsRequest(buf));
  requestIndex.length = 0;
  requestBlock = { data: new Int32Array(0) };
  checking = options.checkValues === true ? [] : null;
  try {
    while (r.pos < end) {
      const tag = r.uint32();
      if (logs && tag === T_REQ_RESOURCE_SPANS) {
        const e = subEnd(r, end, 'ExportLogsServiceRequest.resource_logs');
        readResourceLogs(buf, r.pos, e, logRecords);
        r.pos = e;
      } else if (tag === T_REQ_RESOURCE_SPANS) {
        const e = subEnd(r, end, 'ExportTraceServiceRequest.resource_spans');
        const outer = bounded(r, e);
        resourceSpans.push(readResourceSpans(r, e));
        r.len = outer;
      } else skipField(r, tag, end, 'ExportTraceServiceRequest');
    }
  } catch (error) {
    checking = null;
    if (error instanceof OtlpDecodeError) throw error;
    throw new OtlpDecodeError(`truncated or corrupt protobuf at byte ${r.pos}: ${(error as Error).message}`, {
      offset: r.pos,
    });
  }
  requestBlock.data = requestIndex.take();
  const found = checking;
  checking = null;
  if (found === null || found.length === 0) return { resourceSpans, logRecords };
  return { resourceSpans, logRecords, issues: found.map(issueOf) };
}
