import type { OtlpResource, OtlpSpan } from '../evidence/otlp/otlp-types.js';
import { attributesJsonText } from '../sinks/duckdb/attributes-json-text.js';
import { spanEnumNames } from '../sinks/duckdb/span-enum-names.js';

/**
 * The `spans` rows of a batch of trials as flat binary columns (transferable to a worker without a
 * structured clone of per-span strings): every text cell is UTF-8 in `bytes`, addressed by an
 * (offset, length) pair in `text` (length -1 = SQL NULL); `times` holds start and end nanoseconds;
 * `rows` holds (trial index in the batch, span ordinal in the trial).
 */
export interface SpanBatch {
  count: number;
  bytes: Uint8Array;
  /** Per row, {@link SPAN_TEXT_COLUMNS} (offset, length) pairs. */
  text: Int32Array;
  /** Per row, start then end time (unsigned 64-bit nanoseconds). */
  times: BigUint64Array;
  /** Per row, the trial's index in the batch and the span's ordinal in its trial. */
  rows: Uint32Array;
}

/**
 * The text columns of a {@link SpanBatch} row, in `spans` table order: trace id, span id, parent
 * span id, name, kind, status code, status message, attributes, resource attributes, scope name.
 */
export const SPAN_TEXT_COLUMNS = 10;

/**
 * Builds a {@link SpanBatch}: the same cells as `spanRowCells` (the `score --db` sink's rows), written
 * straight into one growing UTF-8 buffer. A resource's attribute JSON is rendered and written once per
 * batch however many spans share the resource; short repeated texts (kind, status, scope) are
 * written once too.
 *
 * @example
 * const b = new SpanBatchBuilder();
 * b.addTrial(0, trace.spans);
 * worker.postMessage(b.finish(), [batch.bytes.buffer]);
 */
export class SpanBatchBuilder {
  #bytes = Buffer.allocUnsafeSlow(1 << 16);
  #used = 0;
  #text = new Int32Array(SPAN_TEXT_COLUMNS * 2 * 64);
  #times = new BigUint64Array(2 * 64);
  #rows = new Uint32Array(2 * 64);
  #count = 0;
  readonly #resources = new Map<OtlpResource, number>();
  readonly #short = new Map<string, number>();

  /** Spans added so far. */
  get count(): number {
    return this.#count;
  }

  /** Adds one trial's spans (ordinals 0, 1, ... in the given order). */
  addTrial(trialIndex: number, spans: readonly OtlpSpan[]): void {
    for (let i = 0; i < spans.length; i++) this.#addSpan(trialIndex, i, spans[i]!);
  }

  /** The batch (the builder must not be used afterwards). */
  finish(): SpanBatch {
    const n = this.#count;
    return {
      count: n,
      bytes: new Uint8Array(this.#bytes.buffer, this.#bytes.byteOffset, this.#used),
      text: this.#text.subarray(0, n * SPAN_TEXT_COLUMNS * 2),
      times: this.#times.subarray(0, n * 2),
      rows: this.#rows.subarray(0, n * 2),
    };
  }

  #addSpan(trialIndex: number, ordinal: number, s: OtlpSpan): void {
    const row = this.#count++;
    if (row * 2 + 2 > this.#rows.length) this.#growRows();
    this.#rows[row * 2] = trialIndex;
    this.#rows[row * 2 + 1] = ordinal;
    this.#times[row * 2] = s.startTimeUnixNano;
    this.#times[row * 2 + 1] = s.endTimeUnixNano;
    let cell = row * SPAN_TEXT_COLUMNS * 2;
    cell = this.#put(cell, s.traceId);
    cell = this.#put(cell, s.spanId);
    cell = this.#put(cell, s.parentSpanId === '' ? null : s.parentSpanId);
    cell = this.#put(cell, s.name);
    cell = this.#putShort(cell, spanEnumNames.kind(s.kind));
    cell = this.#putShort(cell, spanEnumNames.status(s.status.code));
    cell = this.#put(cell, s.status.message === '' ? null : s.status.message);
    cell = this.#put(cell, attributesJsonText(s.attributes));
    cell = this.#putResource(cell, s.resource);
    this.#putShort(cell, s.scope.name === '' ? null : s.scope.name);
  }

  /** Writes a text cell; returns the next cell index. */
  #put(cell: number, value: string | null): number {
    if (value === null) {
      this.#text[cell] = 0;
      this.#text[cell + 1] = -1;
      return cell + 2;
    }
    const max = value.length * 3;
    if (this.#used + max > this.#bytes.length) this.#growBytes(max);
    const written = this.#bytes.write(value, this.#used, 'utf8');
    this.#text[cell] = this.#used;
    this.#text[cell + 1] = written;
    this.#used += written;
    return cell + 2;
  }

  /** A short text repeated across spans: written once, then referenced. */
  #putShort(cell: number, value: string | null): number {
    if (value === null || value.length > 64) return this.#put(cell, value);
    const known = this.#short.get(value);
    if (known !== undefined) return this.#copyCell(cell, known);
    this.#short.set(value, cell);
    return this.#put(cell, value);
  }

  #putResource(cell: number, resource: OtlpResource): number {
    const known = this.#resources.get(resource);
    if (known !== undefined) return this.#copyCell(cell, known);
    this.#resources.set(resource, cell);
    return this.#put(cell, attributesJsonText(resource.attributes));
  }

  #copyCell(cell: number, from: number): number {
    this.#text[cell] = this.#text[from]!;
    this.#text[cell + 1] = this.#text[from + 1]!;
    return cell + 2;
  }

  #growBytes(atLeast: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.#bytes.length * 2, this.#used + atLeast));
    this.#bytes.copy(next, 0, 0, this.#used);
    this.#bytes = next;
  }

  #growRows(): void {
    const cap = this.#rows.length;
    const rows = new Uint32Array(cap * 2);
    rows.set(this.#rows);
    this.#rows = rows;
    const times = new BigUint64Array(cap * 2);
    times.set(this.#times);
    this.#times = times;
    const text = new Int32Array(cap * 2 * SPAN_TEXT_COLUMNS);
    text.set(this.#text);
    this.#text = text;
  }
}
