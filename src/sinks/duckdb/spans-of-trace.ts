import type { OtlpResourceSpans, OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import type { TraceHandle } from '../../evidence/trace-handle.js';
import { appendAll } from '../../util/append-all.js';

/**
 * The OTLP spans of a trace handle, for the `spans` table; an ATIF handle has none. Asks for a
 * capability, not a class: a handle with `spans()` gives its span list, one with only
 * `resourceSpans()` is walked resource → scope → span in file order.
 *
 * @example
 * spansOfTrace(await evidence.trace()).length; // 0 for ATIF
 */
export function spansOfTrace(handle: TraceHandle): readonly OtlpSpan[] {
  if (handle.format !== 'otlp') return [];
  const h = handle as TraceHandle & {
    spans?: () => readonly OtlpSpan[];
    resourceSpans?: () => readonly OtlpResourceSpans[];
  };
  if (typeof h.spans === 'function') return h.spans();
  if (typeof h.resourceSpans === 'function') {
    const out: OtlpSpan[] = [];
    for (const rs of h.resourceSpans()) for (const ss of rs.scopeSpans) appendAll(out, ss.spans);
    return out;
  }
  return [];
}
