/*
 * Protobuf wire code, kept next to the decoder (`decode-otlp-protobuf.ts`): checking attribute depth
 * on decoded values was 17 % of the bytes `serve` allocated; this walk allocates nothing.
 */
/** Position after the last field read by `field` (module state: the walk is synchronous). */
let pos = 0;
/** Payload of the last length-delimited field read by `field`. */
let payloadStart = 0;
let payloadEnd = 0;

const LEN = 2;
const SPAN_ATTRIBUTES = (9 << 3) | LEN;
const SPAN_EVENTS = (11 << 3) | LEN;
const SPAN_LINKS = (13 << 3) | LEN;
const EVENT_ATTRIBUTES = (3 << 3) | LEN;
const LINK_ATTRIBUTES = (4 << 3) | LEN;
const KEY_VALUE_VALUE = (2 << 3) | LEN;
const ANY_ARRAY = (5 << 3) | LEN;
const ANY_KVLIST = (6 << 3) | LEN;
/** `resource_spans`, `scope_spans`, `spans`, `ArrayValue.values`, `KeyValueList.values`. */
const REPEATED_1 = (1 << 3) | LEN;
const REPEATED_2 = (2 << 3) | LEN;

/**
 * Whether an OTLP/protobuf `ExportTraceServiceRequest` may hold a span attribute (its own, its
 * events' or its links') nested more than `maxDepth` levels of `arrayValue` / `kvlistValue` deep:
 * false only when every such value was walked on the wire (lengths and wire types checked, no value
 * decoded, nothing allocated) and none is. True also for bytes it does not follow to the end, so a
 * caller that gets true checks each span's decoded values as before; with false it can skip that.
 *
 * @example
 * if (protobufAttributesNestPast(body, 64)) for (const span of spans) check(span);
 */
export function protobufAttributesNestPast(body: Uint8Array, maxDepth: number): boolean {
  return !eachLen(body, 0, body.length, REPEATED_1, (s, e) =>
    eachLen(body, s, e, REPEATED_2, (s2, e2) =>
      eachLen(body, s2, e2, REPEATED_2, (s3, e3) => spanShallow(body, s3, e3, maxDepth)),
    ),
  );
}

/**
 * Walks the message in `[start, end)`: every field must be well formed; `visit` is called with the
 * payload of each length-delimited field tagged `tag` and must return true. False on anything else.
 */
function eachLen(
  buf: Uint8Array,
  start: number,
  end: number,
  tag: number,
  visit: (start: number, end: number) => boolean,
): boolean {
  pos = start;
  while (pos < end) {
    const t = field(buf, end);
    if (t < 0) return false;
    if (t === tag) {
      const after = pos;
      if (!visit(payloadStart, payloadEnd)) return false;
      pos = after;
    }
  }
  return true;
}

function spanShallow(buf: Uint8Array, start: number, end: number, maxDepth: number): boolean {
  pos = start;
  while (pos < end) {
    const t = field(buf, end);
    if (t < 0) return false;
    if (t !== SPAN_ATTRIBUTES && t !== SPAN_EVENTS && t !== SPAN_LINKS) continue;
    const after = pos;
    const ok =
      t === SPAN_ATTRIBUTES
        ? keyValueShallow(buf, payloadStart, payloadEnd, 0, maxDepth)
        : eachLen(
            buf,
            payloadStart,
            payloadEnd,
            t === SPAN_EVENTS ? EVENT_ATTRIBUTES : LINK_ATTRIBUTES,
            (s, e) => keyValueShallow(buf, s, e, 0, maxDepth),
          );
    if (!ok) return false;
    pos = after;
  }
  return true;
}

/** A `KeyValue` whose value sits inside `depth` arrays / kvlists. */
function keyValueShallow(
  buf: Uint8Array,
  start: number,
  end: number,
  depth: number,
  maxDepth: number,
): boolean {
  return eachLen(buf, start, end, KEY_VALUE_VALUE, (s, e) => anyValueShallow(buf, s, e, depth, maxDepth));
}

function anyValueShallow(
  buf: Uint8Array,
  start: number,
  end: number,
  depth: number,
  maxDepth: number,
): boolean {
  pos = start;
  while (pos < end) {
    const t = field(buf, end);
    if (t < 0) return false;
    if (t !== ANY_ARRAY && t !== ANY_KVLIST) continue;
    if (depth + 1 > maxDepth) return false;
    const after = pos;
    const ok =
      t === ANY_ARRAY
        ? eachLen(buf, payloadStart, payloadEnd, REPEATED_1, (s, e) =>
            anyValueShallow(buf, s, e, depth + 1, maxDepth),
          )
        : eachLen(buf, payloadStart, payloadEnd, REPEATED_1, (s, e) =>
            keyValueShallow(buf, s, e, depth + 1, maxDepth),
          );
    if (!ok) return false;
    pos = after;
  }
  return true;
}

/**
 * Reads the field at `pos` (before `end`): returns its tag and moves `pos` past it (for a
 * length-delimited field, `payloadStart`/`payloadEnd` are its payload); -1 when it is malformed.
 */
function field(buf: Uint8Array, end: number): number {
  const tag = varint32(buf, end);
  if (tag <= 0) return -1;
  switch (tag & 7) {
    case 0:
      for (let n = 0; ; n += 1) {
        if (pos >= end || n === 10) return -1;
        if ((buf[pos++] as number) < 0x80) break;
      }
      return tag;
    case 1:
      pos += 8;
      break;
    case LEN: {
      const n = varint32(buf, end);
      if (n < 0) return -1;
      payloadStart = pos;
      pos += n;
      payloadEnd = pos;
      break;
    }
    case 5:
      pos += 4;
      break;
    default:
      return -1;
  }
  return pos <= end ? tag : -1;
}

/** A varint of at most 31 bits at `pos` (moved past it), or -1. */
function varint32(buf: Uint8Array, end: number): number {
  let v = 0;
  for (let shift = 0; shift < 31; shift += 7) {
    if (pos >= end) return -1;
    const b = buf[pos++] as number;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v < 0 ? -1 : v;
  }
  return -1;
}
