import type { TrialDiagnostic } from '../model/trial-diagnostic.js';
import { formatJsonPath } from '../util/format-json-path.js';
import { invalidUtf8Offsets } from '../util/invalid-utf8-offsets.js';
import { jsonPathAt } from '../util/json-path-at.js';

/**
 * One `invalid_utf8` diagnostic per place where the JSON text `bytes` is not UTF-8 (at most 16), each
 * naming the file, the byte offset (`base` + the position in `bytes`), the 1-based line (`firstLine`
 * + the newlines before it) and the JSON path of the value holding the bytes; `[]` for valid UTF-8.
 *
 * @example
 * invalidUtf8Diagnostics('a.json', Buffer.from('{"m":"\xff"}', 'latin1'));
 * // [{ code: 'invalid_utf8', file: 'a.json', line: 1, offset: 6, field: 'm', message: '…' }]
 */
export function invalidUtf8Diagnostics(
  file: string,
  bytes: Uint8Array,
  where: { base?: number; firstLine?: number } = {},
): TrialDiagnostic[] {
  const offsets = invalidUtf8Offsets(bytes);
  if (offsets.length === 0) return [];
  const base = where.base ?? 0;
  let line = where.firstLine ?? 1;
  let from = 0;
  return offsets.map((at) => {
    for (; from < at; from += 1) if (bytes[from] === 0x0a) line += 1;
    const field = formatJsonPath(jsonPathAt(bytes, at));
    return {
      code: 'invalid_utf8',
      message: `byte 0x${(bytes[at] as number).toString(16).padStart(2, '0')} is not UTF-8: read as U+FFFD`,
      file,
      line,
      offset: base + at,
      field: field === '' ? '$' : field,
    };
  });
}
