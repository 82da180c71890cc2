// Characters that json.dumps(ensure_ascii=True) writes verbatim: printable ASCII except `"` and `\`.
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * A string as Python's `json.dumps` (ensure_ascii=True) writes it: `\"`, `\\`, `\n`, `\r`, `\t`,
 * `\b`, `\f`, and every other non-printable-ASCII UTF-16 unit as a lowercase `\uXXXX` escape.
 *
 * @example
 * pythonQuote('café\n'); // '"caf\\u00e9\\n"'
 */
export function pythonQuote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += '\\u' + c.toString(16).padStart(4, '0');
    }
  }
  return out + s.slice(start) + '"';
}
