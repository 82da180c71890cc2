import { closeSync, openSync } from 'node:fs';
import type { PyJson } from '../../src/pycompat/py-json.js';
import { PyJsonFileWriter } from '../../src/pycompat/py-json-file-writer.js';
import type { StringifyPyJsonOptions } from '../../src/pycompat/stringify-py-json.js';

/**
 * Writes a {@link PyJson} value to `path` as Python would (the same text as `stringifyPyJson` with
 * the same options), streaming the bytes in 1 MiB chunks so that large results never exist as one
 * string. No trailing newline (orjson).
 *
 * @example
 * writePyJsonFile('out_aggregate_metrics.json', agents, { indent: 2 });
 */
export function writePyJsonFile(path: string, value: PyJson, options: StringifyPyJsonOptions = {}): void {
  const fd = openSync(path, 'w');
  try {
    const writer = new PyJsonFileWriter(
      fd,
      options.indent ?? 0,
      options.floats ?? 'orjson',
      options.ensureAscii ?? false,
    );
    writer.value(value, 0);
    writer.flush();
  } finally {
    closeSync(fd);
  }
}
