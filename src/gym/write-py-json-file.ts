import { closeSync, openSync, writeSync } from 'node:fs';
import type { PyJson } from './py-json.js';
import { quotePyJsonString } from './quote-py-json-string.js';
import { serializePyJson, type StringifyPyJsonOptions } from './serialize-py-json.js';

/** Buffers output bytes and writes them to a file descriptor in large chunks. */
class ByteSink {
  private readonly buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;

  constructor(
    private readonly fd: number,
    private readonly ensureAscii: boolean,
  ) {}

  flush(): void {
    let w = 0;
    while (w < this.used) w += writeSync(this.fd, this.buf, w, this.used - w);
    this.used = 0;
  }

  raw(text: string): void {
    const n = text.length;
    if (this.used + 3 * n + 2 > this.buf.length) {
      this.flush();
      if (3 * n + 2 > this.buf.length) {
        writeSync(this.fd, text);
        return;
      }
    }
    if (n < 24) {
      const buf = this.buf;
      let u = this.used;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) {
          this.used += buf.write(text, this.used, 'utf8');
          return;
        }
        buf[u++] = c;
      }
      this.used = u;
    } else this.used += this.buf.write(text, this.used, 'utf8');
  }

  str(value: string): void {
    const n = value.length;
    if (n < 48 && this.used + n + 2 <= this.buf.length) {
      const buf = this.buf;
      let u = this.used;
      buf[u++] = 0x22;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) break;
        buf[u++] = c;
      }
      if (i === n) {
        buf[u++] = 0x22;
        this.used = u;
        return;
      }
    }
    this.raw(quotePyJsonString(value, this.ensureAscii));
  }
}

/**
 * Writes a {@link PyJson} value to `path` as Python would (see {@link serializePyJson}), streaming the
 * bytes in 1 MiB chunks so that large results never exist as one string. No trailing newline (orjson).
 *
 * @example
 * writePyJsonFile('out_aggregate_metrics.json', agents, { indent: 2 });
 */
export function writePyJsonFile(path: string, value: PyJson, options: StringifyPyJsonOptions = {}): void {
  const fd = openSync(path, 'w');
  try {
    const sink = new ByteSink(fd, options.ensureAscii ?? false);
    serializePyJson(value, options, sink);
    sink.flush();
  } finally {
    closeSync(fd);
  }
}
