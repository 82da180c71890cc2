/**
 * A JSON string literal for `s` as Python writes it: escapes like `JSON.stringify`, and with
 * `ensureAscii` (json.dumps' default) every non-ASCII character as `\uXXXX`.
 *
 * @example
 * quotePyJsonString('é', true); // '"\\u00e9"'
 */
export function quotePyJsonString(s: string, ensureAscii = false): string {
  // most strings need no escape at all: quoted as they are, without a copy
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  const q = JSON.stringify(s);
  if (!ensureAscii) return q;
  return q.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A character that `JSON.stringify` escapes, or one `ensureAscii` escapes (DEL and up). */
// eslint-disable-next-line no-control-regex -- control characters are among those escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;
