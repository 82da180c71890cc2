import { invalidUtf8Offsets } from '../../util/invalid-utf8-offsets.js';
import { jsonPathAt } from '../../util/json-path-at.js';
import type { InvalidJsonByte } from './json-utf8-issues.js';
import { OtlpDecodeError } from './otlp-decode-error.js';

/** How an OTLP file is laid out; `auto` decides from the first bytes. */
export type OtlpFileLayout = 'json' | 'jsonl' | 'protobuf' | 'auto';

/**
 * One encoded export request cut out of a file: a JSON document (one line of a JSON-lines file, or a
 * whole `.json` file) or a binary request (a whole `.pb` file or one length-prefixed frame).
 * `offset` is the byte offset of the payload (of its length prefix for frames) in the uncompressed
 * file; `line` is 1-based for JSON payloads.
 */
export type OtlpPayload =
  | {
      readonly kind: 'json';
      readonly text: string;
      readonly line: number;
      readonly offset: number;
      /** Bytes of the payload that are not UTF-8 (`text` has U+FFFD in their place); absent: none. */
      readonly invalidUtf8?: readonly InvalidJsonByte[];
      /** The file's last line, with no newline after it (if it does not parse, the file was cut off). */
      readonly unterminated?: true;
    }
  | {
      readonly kind: 'protobuf';
      readonly bytes: Buffer;
      readonly offset: number;
      /** Byte offset of `bytes` (after the length prefix, for frames). */
      readonly bodyOffset: number;
    };

type Mode = 'undecided' | 'lines' | 'document' | 'frames' | 'single';

const NL = 0x0a;

/**
 * Cuts a byte stream into OTLP payloads, chunk by chunk, holding only the unfinished part:
 *
 * - JSON lines (`.jsonl`, the Collector file exporter): one request per line, blank lines skipped.
 * - `.json`: JSON lines when the first non-blank line is a whole object (`{`…`}` on one line, which
 *   is what the Collector writes even under a `.json` name), else one document (read whole).
 * - protobuf: first byte `0x0a` (field 1 of ExportTraceServiceRequest) = one request (read whole);
 *   first byte `0x00` = the Collector's frames: a 4-byte big-endian length, then that many bytes.
 *
 * `end()` reports a truncated last frame as `OtlpDecodeError` with its byte offset; an unfinished last
 * JSON line is returned as a payload (its parse error will name the line).
 *
 * @example
 * const s = new OtlpPayloadSplitter('jsonl');
 * const payloads = [...s.push(chunk1), ...s.push(chunk2), ...s.end()];
 */
export class OtlpPayloadSplitter {
  readonly #layout: OtlpFileLayout;
  #mode: Mode = 'undecided';
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Byte offset of the first pending byte. */
  #offset = 0;
  /** Line number of the next line to complete (lines mode). */
  #line = 1;

  constructor(layout: OtlpFileLayout) {
    this.#layout = layout;
  }

  /** Bytes taken in so far. */
  get bytesRead(): number {
    return this.#offset + this.#pendingBytes;
  }

  push(chunk: Buffer): OtlpPayload[] {
    if (chunk.length === 0) return [];
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    if (this.#mode === 'undecided') this.#decide(false);
    switch (this.#mode) {
      case 'lines':
        return this.#lines(false);
      case 'frames':
        return this.#frames(false);
      default:
        return [];
    }
  }

  end(): OtlpPayload[] {
    if (this.#mode === 'undecided') this.#decide(true);
    switch (this.#mode) {
      case 'lines':
        return this.#lines(true);
      case 'frames':
        return this.#frames(true);
      case 'document': {
        const all = this.#take();
        const text = all.toString('utf8');
        return text.trim() === '' ? [] : [jsonPayload(all, text, 1, 0)];
      }
      case 'single': {
        const all = this.#take();
        return all.length === 0 ? [] : [{ kind: 'protobuf', bytes: all, offset: 0, bodyOffset: 0 }];
      }
      default:
        return [];
    }
  }

  #take(): Buffer {
    const all = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    this.#offset += all.length;
    this.#pending = [];
    this.#pendingBytes = 0;
    return all;
  }

  #decide(atEnd: boolean): void {
    const head = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    this.#pending = [head];
    let i = 0;
    while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0d || head[i] === NL))
      i += 1;
    if (i >= head.length) {
      if (atEnd) this.#mode = this.#layout === 'protobuf' ? 'single' : 'lines';
      return;
    }
    let layout = this.#layout;
    if (layout === 'auto') layout = head[i] === 0x7b || head[i] === 0x5b ? 'json' : 'protobuf';
    if (layout === 'jsonl') this.#mode = 'lines';
    else if (layout === 'protobuf') this.#mode = head[0] === 0x00 ? 'frames' : 'single';
    else {
      const nl = head.indexOf(NL, i);
      if (nl < 0 && !atEnd) return; // wait for the end of the first line
      const first = head.toString('utf8', i, nl < 0 ? head.length : nl).trimEnd();
      this.#mode = first.startsWith('{') && first.endsWith('}') ? 'lines' : 'document';
    }
  }

  #lines(atEnd: boolean): OtlpPayload[] {
    const out: OtlpPayload[] = [];
    for (;;) {
      const last = this.#pending[this.#pending.length - 1];
      if (last === undefined) break;
      const nl = last.indexOf(NL);
      if (nl < 0) break;
      // A newline is in the last chunk: everything before it (with earlier chunks) is one line.
      const lineBuf =
        this.#pending.length === 1
          ? last.subarray(0, nl)
          : Buffer.concat([...this.#pending.slice(0, -1), last.subarray(0, nl)]);
      const rest = last.subarray(nl + 1);
      this.#emitLine(lineBuf, out);
      this.#offset += lineBuf.length + 1;
      this.#pending = rest.length > 0 ? [rest] : [];
      this.#pendingBytes = rest.length;
    }
    if (atEnd && this.#pendingBytes > 0) {
      const lineBuf = this.#take();
      this.#offset -= lineBuf.length;
      const before = out.length;
      this.#emitLine(lineBuf, out);
      if (out.length > before)
        out[before] = { ...(out[before] as OtlpPayload & { kind: 'json' }), unterminated: true };
      this.#offset += lineBuf.length;
    }
    return out;
  }

  #emitLine(lineBuf: Buffer, out: OtlpPayload[]): void {
    const text = lineBuf.toString('utf8');
    if (text.trim() !== '') out.push(jsonPayload(lineBuf, text, this.#line, this.#offset));
    this.#line += 1;
  }

  /** The first 4 pending bytes as a big-endian length (they may span chunks). */
  #peekLength(): number {
    const first = this.#pending[0] as Buffer;
    if (first.length >= 4) return first.readUInt32BE(0);
    const head = Buffer.concat(this.#pending).subarray(0, 4);
    return head.readUInt32BE(0);
  }

  /** Removes the first `n` pending bytes: a view of the first chunk when it holds them, else a copy. */
  #takeBytes(n: number): Buffer {
    const first = this.#pending[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.#pending.shift();
      else this.#pending[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const chunk = this.#pending[0] as Buffer;
        const take = Math.min(chunk.length, n - filled);
        chunk.copy(out, filled, 0, take);
        filled += take;
        if (take === chunk.length) this.#pending.shift();
        else this.#pending[0] = chunk.subarray(take);
      }
    }
    this.#pendingBytes -= n;
    this.#offset += n;
    return out;
  }

  #frames(atEnd: boolean): OtlpPayload[] {
    const out: OtlpPayload[] = [];
    while (this.#pendingBytes >= 4) {
      const len = this.#peekLength();
      if (this.#pendingBytes - 4 < len) break;
      const at = this.#offset;
      // Frames are views of the read chunks (no copy); a chunk is freed once its trials are done.
      const frame = this.#takeBytes(4 + len);
      out.push({ kind: 'protobuf', bytes: frame.subarray(4), offset: at, bodyOffset: at + 4 });
    }
    if (atEnd && this.#pendingBytes > 0) {
      const at = this.#offset;
      const rest = Buffer.concat(this.#pending);
      if (rest.length < 4) {
        throw new OtlpDecodeError(`truncated frame header at byte ${at} (${rest.length} of 4 length bytes)`, {
          offset: at,
          field: 'frame.length',
        });
      }
      const len = rest.readUInt32BE(0);
      throw new OtlpDecodeError(
        `truncated frame at byte ${at}: the length prefix says ${len} bytes, only ${rest.length - 4} follow`,
        { offset: at, field: 'frame' },
      );
    }
    return out;
  }
}

/** A JSON payload, with the bytes of `bytes` that are not UTF-8 located (offset in the file, path). */
function jsonPayload(bytes: Buffer, text: string, line: number, offset: number): OtlpPayload {
  const bad = invalidUtf8Offsets(bytes);
  if (bad.length === 0) return { kind: 'json', text, line, offset };
  const invalidUtf8 = bad.map((at) => ({
    offset: offset + at,
    byte: bytes[at] as number,
    path: jsonPathAt(bytes, at),
  }));
  return { kind: 'json', text, line, offset, invalidUtf8 };
}
