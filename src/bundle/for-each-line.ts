import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;

/**
 * Calls `onLine(text, line, terminated)` for every non-blank line of a UTF-8 text file, in order,
 * synchronously as each 1 MiB read is split (one decode per read: a newline byte never occurs inside
 * a multi-byte UTF-8 sequence). `line` is 1-based; a trailing `\r` is dropped; only the file's very
 * last line can be unterminated (`terminated` false).
 *
 * @example
 * await forEachLine('scores.jsonl', (text) => JSON.parse(text));
 */
export async function forEachLine(
  file: string,
  onLine: (text: string, line: number, terminated: boolean) => void,
): Promise<void> {
  const handle = await open(file, 'r');
  try {
    // bytes [0, have) of `buf` are the unfinished line carried over from the previous read
    let buf = Buffer.allocUnsafe(2 * CHUNK);
    let have = 0;
    let lineNo = 0;
    for (;;) {
      if (buf.length - have < CHUNK) {
        const bigger = Buffer.allocUnsafe(Math.max(2 * buf.length, have + CHUNK));
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, have, CHUNK, null);
      if (bytesRead === 0) break;
      const end = have + bytesRead;
      const lastNl = buf.lastIndexOf(10, end - 1);
      if (lastNl < have) {
        have = end; // no line ends in this read
        continue;
      }
      const text = buf.toString('utf8', 0, lastNl + 1);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        lineNo++;
        const line = lineText(text, start, nl);
        start = nl + 1;
        if (line !== null) onLine(line, lineNo, true);
      }
      buf.copy(buf, 0, lastNl + 1, end);
      have = end - lastNl - 1;
    }
    if (have > 0) {
      const text = buf.toString('utf8', 0, have);
      const line = lineText(text, 0, text.length);
      if (line !== null) onLine(line, lineNo + 1, false);
    }
  } finally {
    await handle.close();
  }
}

/** The line `data[start, end)` without a trailing `\r`, or null when blank. */
function lineText(data: string, start: number, end: number): string | null {
  if (end > start && data.charCodeAt(end - 1) === 13) end--;
  if (end === start) return null;
  const text = data.slice(start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return null;
  return text;
}
