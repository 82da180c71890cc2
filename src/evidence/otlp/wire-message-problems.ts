import { firstInvalidUtf8 } from '../../util/first-invalid-utf8.js';
import { checkWireValue } from './check-wire-value.js';

/** The layout {@link wireMessageProblems} checks: string fields by number, and the KeyValue field. */
export interface MessageStrings {
  /** The message's name in fields, e.g. `Span.events[0]`. */
  name: string;
  /** String fields: number → field name. */
  strings: Readonly<Record<number, string>>;
  /** The repeated `KeyValue attributes` field's number (0: none). */
  attributes: number;
}

const LEN = 2;

/**
 * A problem {@link wireMessageProblems} found: its kind, the byte offset, the field, and for a value
 * nested too deep, where that attribute's `AnyValue` starts (`valueStart`, -1 otherwise).
 */
export interface WireMessageProblem {
  code: 'invalid_utf8' | 'nesting_too_deep';
  offset: number;
  field: string;
  valueStart: number;
}

/**
 * The problems of the protobuf message in `buf[start, end)` (at most 16): strings that are not UTF-8
 * — its string fields, attribute keys, and attribute values — and attribute values nested more than
 * `MAX_ANY_VALUE_DEPTH` levels (the first problem of each value, depth first, `checkWireValue`),
 * each with the byte offset and the field (`Span.events[0].name`, `Resource.attributes['k']`,
 * `Resource.attributes key '…'`); `[]` when there is none. Nothing is decoded; a message too
 * malformed to walk is left to the decoder (what was found before the damage).
 *
 * @example
 * wireMessageProblems(buf, s, e, { name: 'InstrumentationScope', strings: { 1: 'name', 2: 'version' }, attributes: 3 });
 * // [{ code: 'invalid_utf8', offset: 120, field: 'InstrumentationScope.name', valueStart: -1 }]
 */
export function wireMessageProblems(
  buf: Uint8Array,
  start: number,
  end: number,
  layout: MessageStrings,
): WireMessageProblem[] {
  const out: WireMessageProblem[] = [];
  let p = start;
  while (p < end && out.length < 16) {
    const tag = readVarint(buf, p, end);
    if (tag === null) return out;
    p = tag.next;
    const wireType = tag.value & 7;
    if (wireType !== LEN) {
      if (wireType === 0) {
        const v = readVarint(buf, p, end, 10);
        if (v === null) return out;
        p = v.next;
      } else if (wireType === 1 || wireType === 5) p += wireType === 1 ? 8 : 4;
      else return out;
      continue;
    }
    const len = readVarint(buf, p, end);
    if (len === null || len.next + len.value > end) return out;
    const s = len.next;
    const e = s + len.value;
    const field = tag.value >>> 3;
    const name = layout.strings[field];
    if (name !== undefined) {
      const bad = firstInvalidUtf8(buf, s, e);
      if (bad >= 0)
        out.push({ code: 'invalid_utf8', offset: bad, field: `${layout.name}.${name}`, valueStart: -1 });
    } else if (field === layout.attributes) {
      const found = checkKeyValue(buf, s, e, `${layout.name}.attributes`);
      if (found !== null) out.push(found);
    }
    p = e;
  }
  return out;
}

/** A `KeyValue`'s key, then its value. */
function checkKeyValue(
  buf: Uint8Array,
  start: number,
  end: number,
  prefix: string,
): WireMessageProblem | null {
  let key: [number, number] | null = null;
  let value: [number, number] | null = null;
  let p = start;
  while (p < end) {
    const tag = readVarint(buf, p, end);
    if (tag === null || (tag.value & 7) !== LEN) break;
    const len = readVarint(buf, tag.next, end);
    if (len === null || len.next + len.value > end) break;
    if (tag.value >>> 3 === 1) key = [len.next, len.next + len.value];
    else if (tag.value >>> 3 === 2) value = [len.next, len.next + len.value];
    p = len.next + len.value;
  }
  const keyText =
    key === null ? '' : Buffer.from(buf.buffer, buf.byteOffset + key[0], key[1] - key[0]).toString();
  const badKey = key === null ? -1 : firstInvalidUtf8(buf, key[0], key[1]);
  if (badKey >= 0)
    return { code: 'invalid_utf8', offset: badKey, field: `${prefix} key '${keyText}'`, valueStart: -1 };
  if (value === null) return null;
  const problem = checkWireValue(buf, value[0], value[1]);
  if (problem === null) return null;
  const valueStart = problem.code === 'nesting_too_deep' ? value[0] : -1;
  return { code: problem.code, offset: problem.offset, field: `${prefix}['${keyText}']`, valueStart };
}

/** A varint of up to `maxBytes` bytes at `p` (32 bits are kept), or null when it runs past `end`. */
function readVarint(
  buf: Uint8Array,
  p: number,
  end: number,
  maxBytes = 5,
): { value: number; next: number } | null {
  let value = 0;
  for (let i = 0; i < maxBytes && p + i < end; i += 1) {
    const b = buf[p + i] as number;
    if (i < 5) value |= (b & 0x7f) << (7 * i);
    if (b < 0x80) return { value: value >>> 0, next: p + i + 1 };
  }
  return null;
}
