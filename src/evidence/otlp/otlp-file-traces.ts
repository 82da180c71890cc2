import { OTLPTraceHandle } from './otlp-trace-handle.js';
import type { OtlpExportRequest, OtlpLogRecord, OtlpSpan } from './otlp-types.js';
import { readOtlpFileSync } from './read-otlp-file-sync.js';

/**
 * The spans and log records of one OTLP file, read and decoded once and found by trace id: for
 * callers that need many trials' traces out of one dump (the report of a run scored from a trace
 * dump), where a handle per trial (`OTLPTraceHandle.fromDescriptor`) would read and decode the whole
 * file again for every trial. `handle(traceIds)` equals `OTLPTraceHandle.fromFile(path, { traceIds
 * })`: the spans and log records of those traces, in file order.
 *
 * @example
 * const traces = OtlpFileTraces.read('dump.otlp.pb');
 * traces.handle(['40369f0e29c911262df3048829a72e5b']).normalizedToolCalls();
 */
export class OtlpFileTraces {
  readonly #spans: OtlpSpan[] = [];
  readonly #logs: OtlpLogRecord[] = [];
  /** Positions in `#spans` and `#logs` of each trace's items, ascending. */
  readonly #spansOf = new Map<string, number[]>();
  readonly #logsOf = new Map<string, number[]>();

  private constructor(requests: readonly OtlpExportRequest[]) {
    for (const request of requests) {
      for (const rs of request.resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans) add(this.#spansOf, span.traceId, this.#spans.push(span) - 1);
      for (const log of request.logRecords) add(this.#logsOf, log.traceId, this.#logs.push(log) - 1);
    }
  }

  /** Reads and decodes `path` (as `readOtlpFileSync`: errors name the file and the offset). */
  static read(path: string): OtlpFileTraces {
    return new OtlpFileTraces(readOtlpFileSync(path));
  }

  /** A handle over the spans and log records of `traceIds` in this file, in file order. */
  handle(traceIds: Iterable<string>): OTLPTraceHandle {
    const ids = new Set(traceIds);
    return OTLPTraceHandle.fromSpans(
      pick(this.#spans, this.#spansOf, ids),
      pick(this.#logs, this.#logsOf, ids),
    );
  }
}

function add(index: Map<string, number[]>, traceId: string, at: number): void {
  const list = index.get(traceId);
  if (list === undefined) index.set(traceId, [at]);
  else list.push(at);
}

/** The items of `ids`, in their order in `items` (one trace's positions are ascending already). */
function pick<T>(items: readonly T[], index: ReadonlyMap<string, number[]>, ids: ReadonlySet<string>): T[] {
  const lists: number[][] = [];
  for (const id of ids) {
    const list = index.get(id);
    if (list !== undefined) lists.push(list);
  }
  const positions = lists.length === 1 ? (lists[0] as number[]) : lists.flat().sort((a, b) => a - b);
  return positions.map((at) => items[at] as T);
}
