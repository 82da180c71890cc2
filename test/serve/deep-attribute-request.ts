function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function field(no: number, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(no << 3) | 2, ...varint(bytes.length)]), bytes]);
}

function str(s: string): Buffer {
  return Buffer.from(s, 'utf8');
}

function keyValue(key: string, value: Buffer): Buffer {
  return field(9, Buffer.concat([field(1, str(key)), field(2, value)]));
}

/**
 * An `AnyValue` nested `depth` levels deep (arrays and kvlists in turn) around a string of `padBytes`
 * bytes: the headers are computed from the inside out and written once (no copy per level).
 */
function deepValue(depth: number, padBytes: number): Buffer {
  const leaf = field(1, Buffer.alloc(padBytes, 0x61));
  const heads: Buffer[] = [];
  let size = leaf.length;
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 0) {
      // AnyValue{array_value(5): ArrayValue{values(1): inner}}
      const arrayValue = 1 + varint(size).length + size;
      heads.push(Buffer.from([(5 << 3) | 2, ...varint(arrayValue), (1 << 3) | 2, ...varint(size)]));
      size += heads[heads.length - 1]!.length;
    } else {
      // AnyValue{kvlist_value(6): KeyValueList{values(1): KeyValue{key(1): "k", value(2): inner}}}
      const kv = 3 + 1 + varint(size).length + size;
      const list = 1 + varint(kv).length + kv;
      heads.push(
        Buffer.from([
          (6 << 3) | 2,
          ...varint(list),
          (1 << 3) | 2,
          ...varint(kv),
          (1 << 3) | 2,
          1,
          0x6b,
          (2 << 3) | 2,
          ...varint(size),
        ]),
      );
      size += heads[heads.length - 1]!.length;
    }
  }
  return Buffer.concat([...heads.reverse(), leaf]);
}

/**
 * A protobuf `ExportTraceServiceRequest` with one span of trial `trialId` (trace `traceId`) whose
 * attribute `payload` nests `depth` levels deep around `padBytes` bytes of text: the crafted span of a
 * hostile or broken exporter. Concatenated with another request's bytes it joins that request.
 */
export function deepAttributeRequest(fields: {
  traceId: string;
  spanId: string;
  trialId: string;
  depth: number;
  padBytes: number;
}): Buffer {
  const time = Buffer.alloc(8);
  time.writeBigUInt64LE(1_700_000_000_500_000_000n);
  const span = Buffer.concat([
    field(1, Buffer.from(fields.traceId, 'hex')),
    field(2, Buffer.from(fields.spanId, 'hex')),
    field(5, str('crafted')),
    Buffer.from([(7 << 3) | 1]),
    time,
    Buffer.from([(8 << 3) | 1]),
    time,
    keyValue('gen_ai.conversation.id', field(1, str(fields.trialId))),
    keyValue('payload', deepValue(fields.depth, fields.padBytes)),
  ]);
  return field(1, field(2, field(2, span)));
}

/** The same crafted span as OTLP/JSON text (nesting `depth` levels), as a request of its own. */
export function deepAttributeJson(fields: {
  traceId: string;
  spanId: string;
  trialId: string;
  depth: number;
}): string {
  let open = '';
  let close = '';
  for (let i = 0; i < fields.depth; i++) {
    if (i % 2 === 0) {
      open += '{"arrayValue":{"values":[';
      close = ']}}' + close;
    } else {
      open += '{"kvlistValue":{"values":[{"key":"k","value":';
      close = '}]}}' + close;
    }
  }
  const value = `${open}{"stringValue":"leaf"}${close}`;
  return (
    `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"s"},"spans":[{` +
    `"traceId":"${fields.traceId}","spanId":"${fields.spanId}","name":"crafted","kind":1,` +
    `"startTimeUnixNano":"1700000000500000000","endTimeUnixNano":"1700000000500000000","attributes":[` +
    `{"key":"gen_ai.conversation.id","value":{"stringValue":"${fields.trialId}"}},` +
    `{"key":"payload","value":${value}}]}]}]}]}`
  );
}
