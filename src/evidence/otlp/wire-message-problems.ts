import { firstInvalidUtf8 } from '../../util/first-invalid-utf8.js';
import { afterVarint64, checkWireValue, varint, varintEnd } from './check-wire-value.js';

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
/** The answer for the usual message, which has no problem. */
const NONE: readonly WireMessageProblem[] = [];

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
): readonly WireMessageProblem[] {
  let out: WireMessageProblem[] | null = null;
  let p = start;
  while (p < end && (out === null || out.length < 16)) {
    const tag = varint(buf, p, end);
    if (tag < 0) return out ?? NONE;
    p = varintEnd();
    const wireType = tag & 7;
    if (wireType !== LEN) {
      if (wireType === 0) p = afterVarint64(buf, p, end);
      else if (wireType === 1 || wireType === 5) p += wireType === 1 ? 8 : 4;
      else return out ?? NONE;
      if (p > end) return out ?? NONE;
      continue;
    }
    const len = varint(buf, p, end);
    const s = varintEnd();
    if (len < 0 || s + len > end) return out ?? NONE;
    const e = s + len;
    const field = tag >>> 3;
    const name = layout.strings[field];
    if (name !== undefined) {
      const bad = firstInvalidUtf8(buf, s, e);
      if (bad >= 0)
        (out ??= []).push({
          code: 'invalid_utf8',
          offset: bad,
          field: `${layout.name}.${name}`,
          valueStart: -1,
        });
    } else if (field === layout.attributes) {
      const found = checkKeyValue(buf, s, e, layout.name);
      if (found !== null) (out ??= []).push(found);
    }
    p = e;
  }
  return out ?? NONE;
}

/** The key of a `KeyValue` at `buf[start, end)`, decoded to name a problem. */
function keyText(buf: Uint8Array, start: number, end: number): string {
  return start < 0 ? '' : Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString();
}

/** A `KeyValue`'s key, then its value, in an attribute of message `message` (named in a problem found). */
function checkKeyValue(
  buf: Uint8Array,
  start: number,
  end: number,
  message: string,
): WireMessageProblem | null {
  let keyStart = -1;
  let keyEnd = -1;
  let valueStart = -1;
  let valueEnd = -1;
  let p = start;
  while (p < end) {
    const tag = varint(buf, p, end);
    if (tag < 0 || (tag & 7) !== LEN) break;
    const len = varint(buf, varintEnd(), end);
    const s = varintEnd();
    if (len < 0 || s + len > end) break;
    if (tag >>> 3 === 1) {
      keyStart = s;
      keyEnd = s + len;
    } else if (tag >>> 3 === 2) {
      valueStart = s;
      valueEnd = s + len;
    }
    p = s + len;
  }
  const badKey = keyStart < 0 ? -1 : firstInvalidUtf8(buf, keyStart, keyEnd);
  if (badKey >= 0) {
    const field = `${message}.attributes key '${keyText(buf, keyStart, keyEnd)}'`;
    return { code: 'invalid_utf8', offset: badKey, field, valueStart: -1 };
  }
  if (valueStart < 0) return null;
  const problem = checkWireValue(buf, valueStart, valueEnd);
  if (problem === null) return null;
  return {
    code: problem.code,
    offset: problem.offset,
    field: `${message}.attributes['${keyText(buf, keyStart, keyEnd)}']`,
    valueStart: problem.code === 'nesting_too_deep' ? valueStart : -1,
  };
}
