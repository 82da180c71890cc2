/**
 * The line `data[start, end)` of a decoded chunk without a trailing `\r`, or null when it is blank
 * (empty or whitespace only): the rule every JSONL reader here applies before parsing.
 *
 * @example
 * lineText('a\r\n\n', 0, 2); // 'a'
 */
export function lineText(data: string, start: number, end: number): string | null {
  if (end > start && data.charCodeAt(end - 1) === 13) end--;
  if (end === start) return null;
  const text = data.slice(start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return null;
  return text;
}
