import type { OtlpPayloadItem, OtlpRequestItem } from '../evidence/otlp/otlp-stream-types.js';
import { OtlpTrialGrouper } from '../evidence/otlp/otlp-trial-grouper.js';
import type { OtlpTrialPart } from '../evidence/otlp/build-otlp-trial-part.js';
import type { OtlpExportRequest } from '../evidence/otlp/otlp-types.js';
import type { TrialItem } from '../model/trial-item.js';
import { decodeOtlpItem } from '../operators/decode-otlp-item.js';
import { InputError } from '../sources/input-error.js';
import type { WorkChunk } from './work-chunk.js';
import type { OtlpChunkCheck } from './worker-messages.js';

const EMPTY: OtlpRequestItem = {
  file: '',
  request: { resourceSpans: [], logRecords: [] },
  offset: 0,
  line: null,
  bytesRead: 0,
};

/**
 * Groups the payloads of an `otlp-frames` chunk into trials as one pass over the whole input groups
 * them, provided no trace crosses the chunk's edges (the returned `check` lets the main thread make
 * sure): the trials of the last chunk are flushed at its end; those of another chunk are let go by
 * `windowRequests` empty requests, so they come out when and in the order one pass emits them.
 * Payloads that do not decode go to `onIssue` and are skipped.
 *
 * @example
 * const { items, parts, check } = readOtlpFrames(chunk, (issue) => warn(issue.message));
 */
export function readOtlpFrames(
  chunk: Extract<WorkChunk, { kind: 'otlp-frames' }>,
  onIssue: (issue: InputError) => void,
): { items: TrialItem[]; parts: OtlpTrialPart[]; check: OtlpChunkCheck } {
  const window = OtlpTrialGrouper.defaultWindowRequests;
  const grouper = new OtlpTrialGrouper({});
  const items: TrialItem[] = [];
  const head = new Set<string>();
  const recent: string[][] = [];
  let requests = 0;
  let peakSpans = 0;
  // a copy: the spans point into it, and the chunk's own bytes go back to the main thread
  const bytes = Buffer.from(new Uint8Array(chunk.bytes));
  for (const wire of chunk.payloads) {
    const payload: OtlpPayloadItem = {
      file: wire.file,
      payload:
        wire.kind === 'json'
          ? { kind: 'json', text: wire.text, line: wire.line, offset: wire.offset }
          : {
              kind: 'protobuf',
              bytes: bytes.subarray(wire.start, wire.end),
              offset: wire.offset,
              bodyOffset: wire.bodyOffset,
            },
      bytesRead: 0,
    };
    let request: OtlpRequestItem;
    try {
      request = decodeOtlpItem(payload);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      onIssue(error);
      continue;
    }
    const { ids, spans } = touchedTraces(request.request);
    requests += 1;
    if (requests <= window) for (const id of ids) head.add(id);
    recent.push(ids);
    if (recent.length > window) recent.shift();
    peakSpans = Math.max(peakSpans, grouper.heldSpans + spans);
    items.push(...grouper.push(request));
  }
  if (chunk.flush) items.push(...grouper.flush());
  else for (let i = 0; i < window; i += 1) items.push(...grouper.push(EMPTY));
  const parts = items.map((item) => grouper.partOf(item) as OtlpTrialPart);
  return {
    items,
    parts,
    check: {
      head: [...head],
      tail: [...new Set(recent.flat())],
      requests,
      peakSpans,
      keys: parts.map((p) => p.key),
      parts: parts.map((p) => p.part),
    },
  };
}

/** The trace ids a request touches (its spans' and its log records'), and its span count. */
function touchedTraces(request: OtlpExportRequest): { ids: string[]; spans: number } {
  const ids = new Set<string>();
  let spans = 0;
  for (const rs of request.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        ids.add(span.traceId);
        spans += 1;
      }
    }
  }
  for (const log of request.logRecords) if (log.traceId !== '') ids.add(log.traceId);
  return { ids: [...ids], spans };
}
