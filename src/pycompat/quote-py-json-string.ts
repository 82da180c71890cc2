/**
 * A JSON string literal for `s` as Python writes it: escapes like `JSON.stringify`, and with
 * `ensureAscii` (json.dumps' default) every non-ASCII character as `\uXXXX`.
 *
 * @example
 * quotePyJsonString('é', true); // '"\\u00e9"'
 */
export function quotePyJsonString(s: string, ensureAscii = false): string {
  const q = JSON.stringify(s);
  if (!ensureAscii) return q;
  return q.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
