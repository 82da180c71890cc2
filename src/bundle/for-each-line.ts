import { invalidUtf8LineError } from './invalid-utf8-line-error.js';
import { lineText } from './line-text.js';
import { readTextChunks } from './read-text-chunks.js';

/**
 * Calls `onLine(text, line, terminated)` for every non-blank line of a UTF-8 text file, in order,
 * synchronously as each 1 MiB chunk is split (`readTextChunks`). `line` is 1-based; a trailing `\r`
 * is dropped; only the file's very last line can be unterminated (`terminated` false). A line with a
 * byte that is not UTF-8 rejects with a `BundleReadError` naming `displayName` (default: the file's
 * name), the line and the byte's offset, after the lines before it.
 *
 * @example
 * await forEachLine('scores.jsonl', (text) => JSON.parse(text));
 */
export async function forEachLine(
  file: string,
  onLine: (text: string, line: number, terminated: boolean) => void,
  displayName?: string,
): Promise<void> {
  let lineNo = 0;
  for await (const { text, tail, invalidUtf8At } of readTextChunks(file)) {
    if (tail) {
      const line = lineText(text, 0, text.length);
      if (line !== null) onLine(line, lineNo + 1, false);
      break;
    }
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      lineNo++;
      const line = lineText(text, start, nl);
      start = nl + 1;
      if (line !== null) onLine(line, lineNo, true);
    }
    if (invalidUtf8At !== undefined) throw invalidUtf8LineError(file, displayName, lineNo + 1, invalidUtf8At);
  }
}
