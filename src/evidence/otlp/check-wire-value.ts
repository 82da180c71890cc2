import { firstInvalidUtf8 } from '../../util/first-invalid-utf8.js';
import { MAX_ANY_VALUE_DEPTH } from './max-any-value-depth.js';

/** What {@link checkWireValue} found in an encoded value: the problem and the byte it starts at. */
export interface WireValueProblem {
  code: 'invalid_utf8' | 'nesting_too_deep';
  offset: number;
}

const ANY_VALUE = 0;
const ARRAY_VALUE = 1;
const KEY_VALUE_LIST = 2;
const KEY_VALUE = 3;

/**
 * Checks the protobuf `AnyValue` in `buf[start, end)` without decoding it: nesting deeper than
 * `maxDepth` levels (as the decoder counts them) and strings (values and kvlist keys) that are not
 * UTF-8. Walks with a stack of its own (no recursion). Returns the problem, the depth first, or null;
 * a value too malformed to walk is left to the decoder (null).
 *
 * @example
 * checkWireValue(buf, 0, buf.length); // { code: 'invalid_utf8', offset: 2 } for a string_value 0xff
 */
export function checkWireValue(
  buf: Uint8Array,
  start: number,
  end: number,
  maxDepth = MAX_ANY_VALUE_DEPTH,
): WireValueProblem | null {
  const first = buf[start];
  // only strings, arrays and kvlists can hold either problem
  if (first !== STRING_TAG && first !== ARRAY_TAG && first !== KVLIST_TAG) return null;
  if (first === STRING_TAG) {
    // the usual value: just a string_value
    const len = varint(buf, start + 1, end);
    if (len >= 0 && cursor + len === end) {
      const bad = firstInvalidUtf8(buf, cursor, end);
      return bad < 0 ? null : { code: 'invalid_utf8', offset: bad };
    }
  }
  let utf8: WireValueProblem | null = null;
  // quadruples: start, end, depth, kind
  const stack = [start, end, 0, ANY_VALUE];
  while (stack.length > 0) {
    const kind = stack.pop() as number;
    const depth = stack.pop() as number;
    const e = stack.pop() as number;
    let p = stack.pop() as number;
    if (kind === ANY_VALUE && depth > maxDepth) return { code: 'nesting_too_deep', offset: p };
    while (p < e) {
      const tag = varint(buf, p, e);
      if (tag < 0) return utf8;
      p = cursor;
      const wireType = tag & 7;
      if (wireType !== 2) {
        p = wireType === 0 ? afterVarint64(buf, p, e) : p + (wireType === 1 ? 8 : 4);
        if (p > e || (wireType !== 0 && wireType !== 1 && wireType !== 5)) return utf8;
        continue;
      }
      const len = varint(buf, p, e);
      const s = cursor;
      if (len < 0 || s + len > e) return utf8;
      const field = tag >>> 3;
      if ((kind === ANY_VALUE || kind === KEY_VALUE) && field === 1) {
        const bad: number = utf8 === null ? firstInvalidUtf8(buf, s, s + len) : -1;
        if (bad >= 0) utf8 = { code: 'invalid_utf8', offset: bad };
      } else if (kind === ANY_VALUE && field === 5) stack.push(s, s + len, depth, ARRAY_VALUE);
      else if (kind === ANY_VALUE && field === 6) stack.push(s, s + len, depth, KEY_VALUE_LIST);
      else if (kind === ARRAY_VALUE && field === 1) stack.push(s, s + len, depth + 1, ANY_VALUE);
      else if (kind === KEY_VALUE_LIST && field === 1) stack.push(s, s + len, depth, KEY_VALUE);
      else if (kind === KEY_VALUE && field === 2) stack.push(s, s + len, depth + 1, ANY_VALUE);
      p = s + len;
    }
  }
  return utf8;
}

const STRING_TAG = (1 << 3) | 2;
const ARRAY_TAG = (5 << 3) | 2;
const KVLIST_TAG = (6 << 3) | 2;

/** Where the last {@link varint} stopped. */
let cursor = 0;

/** Where the last {@link varint} stopped: the position after it. */
export function varintEnd(): number {
  return cursor;
}

/**
 * A varint of up to 32 bits at `p` before `end` (its end then read by {@link varintEnd}), or -1 when
 * malformed. Module state instead of a returned pair: the walks that read one varint per field
 * allocate nothing.
 *
 * @example
 * const len = varint(buf, p, end); // then the bytes are buf[varintEnd(), varintEnd() + len)
 */
export function varint(buf: Uint8Array, p: number, end: number): number {
  let v = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (p >= end) return -1;
    const b = buf[p] as number;
    p += 1;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) {
      cursor = p;
      return v >>> 0;
    }
  }
  return -1;
}

/**
 * The position after the varint of up to 64 bits at `p`, or past `end` when malformed.
 *
 * @example
 * afterVarint64(Buffer.from([0x96, 0x01]), 0, 2); // 2
 */
export function afterVarint64(buf: Uint8Array, p: number, end: number): number {
  for (let i = 0; i < 10 && p + i < end; i += 1) if ((buf[p + i] as number) < 0x80) return p + i + 1;
  return end + 1;
}
