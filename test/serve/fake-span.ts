import { ListAttributes } from '../../src/evidence/otlp/list-attributes.js';
import type { OtlpAnyValue, OtlpAttributes, OtlpSpan } from '../../src/evidence/otlp/otlp-types.js';

function attributes(values: Record<string, string>): OtlpAttributes {
  const entries = Object.entries(values).map(([key, v]) => ({
    key,
    value: { type: 'string', value: v, byteLength: Buffer.byteLength(v) } as OtlpAnyValue,
  }));
  return new ListAttributes(entries);
}

/** A minimal span for receiver/assembler tests (the real decoders are tested in test/evidence/otlp). */
export function fakeSpan(fields: {
  traceId?: string;
  spanId: string;
  parentSpanId?: string;
  name?: string;
  attrs?: Record<string, string>;
  start?: bigint;
}): OtlpSpan {
  const empty = attributes({});
  return {
    traceId: fields.traceId ?? '0af7651916cd43dd8448eb211c80319c',
    spanId: fields.spanId,
    traceState: '',
    parentSpanId: fields.parentSpanId ?? '',
    flags: 0,
    name: fields.name ?? 'chat',
    kind: 1,
    startTimeUnixNano: fields.start ?? 1n,
    endTimeUnixNano: (fields.start ?? 1n) + 10n,
    attributes: attributes(fields.attrs ?? {}),
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: '' },
    resource: { attributes: empty, droppedAttributesCount: 0 },
    scope: { name: 's', version: '', attributes: empty, droppedAttributesCount: 0 },
  };
}
