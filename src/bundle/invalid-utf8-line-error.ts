import { basename } from 'node:path';
import { BundleReadError } from './bundle-read-error.js';

/**
 * The error for a line of a bundle file holding a byte that is not UTF-8 (bundle files are UTF-8
 * JSON; the SDK writes them in ASCII): names the file, the 1-based line and the byte's file offset.
 *
 * @example
 * throw invalidUtf8LineError('runs/r1/scores.jsonl', 'scores.jsonl', 4, 913);
 * // scores.jsonl:4: byte 913 is not UTF-8 (…)
 */
export function invalidUtf8LineError(
  file: string,
  displayName: string | undefined,
  line: number,
  offset: number,
): BundleReadError {
  return new BundleReadError([
    {
      code: 'invalid_utf8',
      file: displayName ?? basename(file),
      line,
      path: [],
      message: `byte ${offset} is not UTF-8 (the line is refused, not read with U+FFFD in its place)`,
    },
  ]);
}
