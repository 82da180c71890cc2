import { ListAttributes } from './list-attributes.js';
import { MAX_ANY_VALUE_DEPTH } from './max-any-value-depth.js';
import { normalizeOtlpId } from './normalize-otlp-id.js';
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

type Obj = { [key: string]: unknown };

const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, number> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The first present key (camelCase spellings first, then snake_case, then legacy names). */
function pick(o: Obj, ...keys: string[]): unknown {
  for (const k of keys) {
    const v = o[k];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpDecodeError(`${path} is not an array`, { field: path });
  return v;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function uint(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return 0;
}

/** A 64-bit integer written as a decimal string or a JSON number, kept exact as bigint. */
function int64(v: unknown, path: string): bigint {
  if (v === undefined || v === null || v === '') return 0n;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'bigint') return v;
  throw new OtlpDecodeError(`${path}: not a 64-bit integer: ${JSON.stringify(v)}`, { field: path });
}

function enumValue(v: unknown, names: Record<string, number>, prefix: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return Number(v);
    const upper = v.toUpperCase();
    return names[upper] ?? names[`${prefix}${upper}`] ?? 0;
  }
  return 0;
}

class JsonString implements OtlpStringValue {
  readonly type = 'string' as const;
  readonly value: string;
  #byteLength = -1;

  constructor(value: string) {
    this.value = value;
  }

  get byteLength(): number {
    if (this.#byteLength < 0) this.#byteLength = Buffer.byteLength(this.value, 'utf8');
    return this.#byteLength;
  }

  toJSON(): string {
    return this.value;
  }
}

/** An attribute value refused for its depth: the attribute's path and key. */
interface Refusal {
  field: string;
  key: string | null;
}

/**
 * Values refused while the current document is converted (module state: the conversion is
 * synchronous and not reentrant); each becomes an issue of the spans it belongs to.
 */
let refused: Refusal[] = [];

/** The refusals made since `mark`, taken off the list. */
function refusedSince(mark: number): Refusal[] {
  return mark === refused.length ? [] : refused.splice(mark);
}

function anyValue(v: unknown, path: string, depth = 0): OtlpAnyValue {
  if (!isObj(v)) return { type: 'empty' };
  if (depth > MAX_ANY_VALUE_DEPTH) {
    refused.push({ field: path.replace(/\.(arrayValue|kvlistValue)\..*$/, ''), key: null });
    return { type: 'empty' };
  }
  const s = pick(v, 'stringValue', 'string_value');
  if (s !== undefined) return new JsonString(String(s));
  const b = pick(v, 'boolValue', 'bool_value');
  if (b !== undefined) return { type: 'bool', value: b === true || b === 'true' };
  const i = pick(v, 'intValue', 'int_value');
  if (i !== undefined) return { type: 'int', value: int64(i, `${path}.intValue`) };
  const d = pick(v, 'doubleValue', 'double_value');
  if (d !== undefined) return { type: 'double', value: typeof d === 'number' ? d : Number(d) };
  const a = pick(v, 'arrayValue', 'array_value');
  if (a !== undefined) {
    const values = isObj(a) ? list(a['values'], `${path}.arrayValue.values`) : [];
    return {
      type: 'array',
      values: values.map((x, k) => anyValue(x, `${path}.arrayValue.values[${k}]`, depth + 1)),
    };
  }
  const kv = pick(v, 'kvlistValue', 'kvlist_value');
  if (kv !== undefined) {
    const values = isObj(kv) ? list(kv['values'], `${path}.kvlistValue.values`) : [];
    return { type: 'kvlist', values: keyValues(values, `${path}.kvlistValue.values`, depth + 1) };
  }
  const by = pick(v, 'bytesValue', 'bytes_value');
  if (typeof by === 'string') return { type: 'bytes', value: new Uint8Array(Buffer.from(by, 'base64')) };
  return { type: 'empty' };
}

function keyValues(items: unknown[], path: string, depth = 0): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [];
  items.forEach((item, k) => {
    if (!isObj(item)) return;
    const mark = refused.length;
    const key = str(item['key']);
    const value = anyValue(item['value'], `${path}[${k}].value`, depth);
    if (depth > 0 || mark === refused.length) {
      out.push({ key, value });
      return;
    }
    // an attribute with a part refused is refused whole, and the refusal names it (its outermost key)
    out.push({ key, value: { type: 'empty' } });
    for (let i = mark; i < refused.length; i += 1) (refused[i] as Refusal).key = key;
  });
  return out;
}

/** The issues of `spans` (or log records) for values refused inside them (or around them: resource, scope). */
function refusalIssues(
  spans: readonly { traceId: string; spanId: string }[],
  refusals: readonly Refusal[],
  into: OtlpSpanIssue[],
): void {
  for (const r of refusals)
    for (const s of spans)
      into.push({
        code: 'nesting_too_deep',
        traceId: s.traceId,
        spanId: s.spanId,
        field: r.field,
        message: `attribute '${r.key ?? ''}' nested more than ${MAX_ANY_VALUE_DEPTH} levels deep: value refused (read as empty)`,
        offset: null,
      });
}

/** Issues of the document being converted (module state, as `refused`). */
let issues: OtlpSpanIssue[] = [];

function attributes(v: unknown, path: string): OtlpAttributes {
  const items = list(v, path);
  return items.length === 0 ? ListAttributes.EMPTY : new ListAttributes(keyValues(items, path));
}

function resource(v: unknown, path: string): OtlpResource {
  if (!isObj(v)) return { attributes: ListAttributes.EMPTY, droppedAttributesCount: 0 };
  return {
    attributes: attributes(v['attributes'], `${path}.attributes`),
    droppedAttributesCount: uint(pick(v, 'droppedAttributesCount', 'dropped_attributes_count')),
  };
}

function scope(v: unknown, path: string): OtlpScope {
  if (!isObj(v))
    return { name: '', version: '', attributes: ListAttributes.EMPTY, droppedAttributesCount: 0 };
  return {
    name: str(v['name']),
    version: str(v['version']),
    attributes: attributes(v['attributes'], `${path}.attributes`),
    droppedAttributesCount: uint(pick(v, 'droppedAttributesCount', 'dropped_attributes_count')),
  };
}

function status(v: unknown): OtlpStatus {
  if (!isObj(v)) return { code: 0, message: '' };
  return { code: enumValue(v['code'], STATUS_CODES, 'STATUS_CODE_'), message: str(v['message']) };
}

function event(v: unknown, path: string): OtlpSpanEvent {
  const o = isObj(v) ? v : {};
  return {
    timeUnixNano: int64(pick(o, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`),
    name: str(o['name']),
    attributes: attributes(o['attributes'], `${path}.attributes`),
    droppedAttributesCount: uint(pick(o, 'droppedAttributesCount', 'dropped_attributes_count')),
  };
}

function link(v: unknown, path: string): OtlpSpanLink {
  const o = isObj(v) ? v : {};
  return {
    traceId: normalizeOtlpId(pick(o, 'traceId', 'trace_id'), 16),
    spanId: normalizeOtlpId(pick(o, 'spanId', 'span_id'), 8),
    traceState: str(pick(o, 'traceState', 'trace_state')),
    attributes: attributes(o['attributes'], `${path}.attributes`),
    droppedAttributesCount: uint(pick(o, 'droppedAttributesCount', 'dropped_attributes_count')),
    flags: uint(o['flags']),
  };
}

function span(v: unknown, path: string, res: OtlpResource, sc: OtlpScope): OtlpSpan {
  if (!isObj(v)) throw new OtlpDecodeError(`${path} is not an object`, { field: path });
  return {
    traceId: normalizeOtlpId(pick(v, 'traceId', 'trace_id'), 16),
    spanId: normalizeOtlpId(pick(v, 'spanId', 'span_id'), 8),
    traceState: str(pick(v, 'traceState', 'trace_state')),
    parentSpanId: normalizeOtlpId(pick(v, 'parentSpanId', 'parent_span_id'), 8),
    flags: uint(v['flags']),
    name: str(v['name']),
    kind: enumValue(v['kind'], SPAN_KINDS, 'SPAN_KIND_'),
    startTimeUnixNano: int64(
      pick(v, 'startTimeUnixNano', 'start_time_unix_nano'),
      `${path}.startTimeUnixNano`,
    ),
    endTimeUnixNano: int64(pick(v, 'endTimeUnixNano', 'end_time_unix_nano'), `${path}.endTimeUnixNano`),
    attributes: attributes(v['attributes'], `${path}.attributes`),
    droppedAttributesCount: uint(pick(v, 'droppedAttributesCount', 'dropped_attributes_count')),
    events: list(v['events'], `${path}.events`).map((e, k) => event(e, `${path}.events[${k}]`)),
    droppedEventsCount: uint(pick(v, 'droppedEventsCount', 'dropped_events_count')),
    links: list(v['links'], `${path}.links`).map((l, k) => link(l, `${path}.links[${k}]`)),
    droppedLinksCount: uint(pick(v, 'droppedLinksCount', 'dropped_links_count')),
    status: status(v['status']),
    resource: res,
    scope: sc,
  };
}

function resourceSpans(v: unknown, path: string): OtlpResourceSpans {
  if (!isObj(v)) throw new OtlpDecodeError(`${path} is not an object`, { field: path });
  const res = resource(v['resource'], `${path}.resource`);
  const resourceRefusals = refusedSince(0);
  const key = v['scopeSpans'] !== undefined ? 'scopeSpans' : 'scope_spans';
  const scopes = list(pick(v, 'scopeSpans', 'scope_spans', 'instrumentationLibrarySpans'), `${path}.${key}`);
  const scopeSpans: OtlpScopeSpans[] = scopes.map((ss, k) => {
    const p = `${path}.scopeSpans[${k}]`;
    if (!isObj(ss)) throw new OtlpDecodeError(`${p} is not an object`, { field: p });
    const sc = scope(pick(ss, 'scope', 'instrumentationLibrary'), `${p}.scope`);
    const scopeRefusals = refusedSince(0);
    const spans = list(ss['spans'], `${p}.spans`).map((s, j) => {
      const decoded = span(s, `${p}.spans[${j}]`, res, sc);
      refusalIssues([decoded], refusedSince(0), issues);
      return decoded;
    });
    refusalIssues(spans, scopeRefusals, issues);
    return { scope: sc, spans, schemaUrl: str(pick(ss, 'schemaUrl', 'schema_url')) };
  });
  for (const ss of scopeSpans) refusalIssues(ss.spans, resourceRefusals, issues);
  return { resource: res, scopeSpans, schemaUrl: str(pick(v, 'schemaUrl', 'schema_url')) };
}

/** `SEVERITY_NUMBER_<name>` by name (`INFO2`, …: four steps per level, TRACE = 1). */
const SEVERITY_NUMBERS: Record<string, number> = Object.fromEntries(
  ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level, i) =>
    ['', '2', '3', '4'].map((step, j) => [`SEVERITY_NUMBER_${level}${step}`, i * 4 + j + 1]),
  ),
);

function logRecord(r: unknown, path: string, res: OtlpResource, sc: OtlpScope): OtlpLogRecord {
  if (!isObj(r)) throw new OtlpDecodeError(`${path} is not an object`, { field: path });
  const attrs = attributes(r['attributes'], `${path}.attributes`);
  const eventName =
    str(pick(r, 'eventName', 'event_name')) ||
    (attrs.getString('event.name') ?? attrs.getString('otel.event.name') ?? '');
  const observed = int64(
    pick(r, 'observedTimeUnixNano', 'observed_time_unix_nano'),
    `${path}.observedTimeUnixNano`,
  );
  const time = int64(pick(r, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`);
  return {
    traceId: normalizeOtlpId(pick(r, 'traceId', 'trace_id'), 16),
    spanId: normalizeOtlpId(pick(r, 'spanId', 'span_id'), 8),
    timeUnixNano: time === 0n ? observed : time,
    observedTimeUnixNano: observed,
    severityNumber: enumValue(
      pick(r, 'severityNumber', 'severity_number'),
      SEVERITY_NUMBERS,
      'SEVERITY_NUMBER_',
    ),
    severityText: str(pick(r, 'severityText', 'severity_text')),
    eventName,
    attributes: attrs,
    droppedAttributesCount: uint(pick(r, 'droppedAttributesCount', 'dropped_attributes_count')),
    flags: uint(r['flags']),
    body: anyValue(r['body'], `${path}.body`),
    resource: res,
    scope: sc,
  };
}

function logRecords(v: unknown, path: string): OtlpLogRecord[] {
  const out: OtlpLogRecord[] = [];
  list(v, path).forEach((rl, i) => {
    const rp = `${path}[${i}]`;
    if (!isObj(rl)) throw new OtlpDecodeError(`${rp} is not an object`, { field: rp });
    const res = resource(rl['resource'], `${rp}.resource`);
    const resourceRefusals = refusedSince(0);
    const first = out.length;
    const scopes = list(pick(rl, 'scopeLogs', 'scope_logs', 'instrumentationLibraryLogs'), `${rp}.scopeLogs`);
    scopes.forEach((sl, j) => {
      const sp = `${rp}.scopeLogs[${j}]`;
      if (!isObj(sl)) throw new OtlpDecodeError(`${sp} is not an object`, { field: sp });
      const sc = scope(pick(sl, 'scope', 'instrumentationLibrary'), `${sp}.scope`);
      const p = `${sp}.logRecords`;
      list(pick(sl, 'logRecords', 'log_records'), p).forEach((r, k) => {
        out.push(logRecord(r, `${p}[${k}]`, res, sc));
        // a value refused in a log record is an issue of the record's trace (as its span would be)
        refusalIssues(out.slice(-1), refusedSince(0), issues);
      });
    });
    refusalIssues(out.slice(first), resourceRefusals, issues);
  });
  return out;
}

/**
 * Converts a parsed OTLP/JSON document to the trace model, accepting what producers really write:
 * `resourceSpans` (or Tempo's `batches`, or a bare list of ResourceSpans), `scopeSpans` or
 * `instrumentationLibrarySpans`, hex or base64 ids (→ lowercase hex), enums as integers or names,
 * 64-bit integers as strings or numbers (exact bigint; parse the text with `parseLosslessJson`),
 * camelCase or snake_case keys. `resourceLogs` (an `ExportLogsServiceRequest`, or log records written
 * in the same document as spans) become `logRecords`, with severities as integers or names. Unknown
 * keys are ignored; a structurally wrong document throws `OtlpDecodeError` naming the field path. An
 * attribute value nested more than `MAX_ANY_VALUE_DEPTH` levels is refused by itself: read as empty,
 * with a `nesting_too_deep` issue (its path and key) for each span it belongs to in `issues`.
 *
 * @example
 * const req = otlpJsonToRequest(parseLosslessJson(text));
 * req.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.traceId; // '5b8efff798038103d269b633813fc60c'
 */
export function otlpJsonToRequest(doc: unknown): OtlpExportRequest {
  refused = [];
  issues = [];
  try {
    const request = convert(doc);
    return issues.length === 0 ? request : { ...request, issues };
  } finally {
    refused = [];
    issues = [];
  }
}

function convert(doc: unknown): OtlpExportRequest {
  if (Array.isArray(doc)) {
    return { resourceSpans: doc.map((rs, i) => resourceSpans(rs, `[${i}]`)), logRecords: [] };
  }
  if (!isObj(doc)) throw new OtlpDecodeError('an OTLP/JSON document must be an object', { field: '$' });
  const key =
    doc['resourceSpans'] !== undefined
      ? 'resourceSpans'
      : doc['batches'] !== undefined
        ? 'batches'
        : 'resource_spans';
  const rs = list(pick(doc, 'resourceSpans', 'resource_spans', 'batches'), key);
  const resourceSpansOut = rs.map((x, i) => resourceSpans(x, `${key}[${i}]`));
  const logs = logRecords(pick(doc, 'resourceLogs', 'resource_logs'), 'resourceLogs');
  return { resourceSpans: resourceSpansOut, logRecords: logs };
}
