/**
 * Cuts a string to `max` characters, marking the cut (never splits a surrogate pair).
 *
 * @example
 * cutText('abcdef', 3); // 'abc… [+3 chars]'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [+${text.length - end} chars]`;
}
