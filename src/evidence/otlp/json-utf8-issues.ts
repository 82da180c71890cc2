import { formatJsonPath } from '../../util/format-json-path.js';
import type { OtlpExportRequest, OtlpSpan, OtlpSpanIssue } from './otlp-types.js';

/** A byte of an OTLP/JSON payload that is not UTF-8: its offset (in the file), value and JSON path. */
export interface InvalidJsonByte {
  readonly offset: number;
  readonly byte: number;
  readonly path: readonly (string | number)[];
}

/**
 * The `invalid_utf8` issues of a converted OTLP/JSON document: each invalid byte becomes an issue of
 * the span it lies in (of every span of the resource or scope it lies in, outside a span), naming its
 * JSON path and, inside an attribute, the attribute's key. Bytes outside any span (log records) are
 * issues of no span and left out.
 *
 * @example
 * jsonUtf8Issues(request, doc, [{ offset: 181, byte: 0xff, path: ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 1, 'name'] }]);
 */
export function jsonUtf8Issues(
  request: OtlpExportRequest,
  doc: unknown,
  bytes: readonly InvalidJsonByte[],
): OtlpSpanIssue[] {
  const out: OtlpSpanIssue[] = [];
  for (const b of bytes) {
    const key = attributeKeyAt(doc, b.path);
    const message =
      `byte 0x${b.byte.toString(16).padStart(2, '0')} is not UTF-8: read as U+FFFD` +
      (key === null ? '' : ` (attribute '${key}')`);
    for (const span of spansAt(request, b.path))
      out.push({
        code: 'invalid_utf8',
        traceId: span.traceId,
        spanId: span.spanId,
        field: formatJsonPath(b.path),
        message,
        offset: b.offset,
      });
  }
  return out;
}

/** The spans under `path` (`resourceSpans[i].scopeSpans[j].spans[k]…`, any spelling of the keys). */
function spansAt(request: OtlpExportRequest, path: readonly (string | number)[]): readonly OtlpSpan[] {
  let at = typeof path[0] === 'number' ? 0 : 1;
  if (at === 1 && !/^(resourceSpans|resource_spans|batches)$/.test(String(path[0]))) return [];
  const rs = request.resourceSpans[path[at] as number];
  if (rs === undefined) return [];
  at += 1;
  const spansOf = (list: typeof rs.scopeSpans): OtlpSpan[] => list.flatMap((ss) => [...ss.spans]);
  if (!/^(scopeSpans|scope_spans|instrumentationLibrarySpans)$/.test(String(path[at])))
    return spansOf(rs.scopeSpans);
  const ss = rs.scopeSpans[path[at + 1] as number];
  if (ss === undefined) return [];
  const k = path[at + 3];
  if (path[at + 2] !== 'spans' || typeof k !== 'number') return ss.spans;
  const span = ss.spans[k];
  return span === undefined ? [] : [span];
}

/** The `key` of the outermost attribute (`{ key, value }` object) on `path` in `doc`, or null. */
function attributeKeyAt(doc: unknown, path: readonly (string | number)[]): string | null {
  let node: unknown = doc;
  for (const p of path) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string | number, unknown>)[p];
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      const o = node as Record<string, unknown>;
      if (typeof o['key'] === 'string' && 'value' in o) return o['key'];
    }
  }
  return null;
}
