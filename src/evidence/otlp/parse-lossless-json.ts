/**
 * Parses JSON text like `JSON.parse`, except that integer literals too long to be exact doubles (more
 * than 15 digits, e.g. Tempo's bare-number nanosecond timestamps ~1.7e18) come back as decimal
 * strings instead of silently rounded numbers. Numbers inside strings are left alone.
 *
 * @example
 * parseLosslessJson('{"t":1777555053780274700,"n":3}'); // { t: '1777555053780274700', n: 3 }
 */
export function parseLosslessJson(text: string): unknown {
  return JSON.parse(/\d{16}/.test(text) ? quoteLongIntegers(text) : text) as unknown;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Wraps integer tokens of 16+ digits (outside strings) in quotes. */
function quoteLongIntegers(text: string): string {
  const parts: string[] = [];
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i += 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 2;
        else if (d === QUOTE) break;
        else i += 1;
      }
      i += 1;
      continue;
    }
    if (c === MINUS || isDigit(c)) {
      const start = i;
      i += 1;
      while (i < n && isDigit(text.charCodeAt(i))) i += 1;
      const next = i < n ? text.charCodeAt(i) : 0;
      const isInteger = next !== 0x2e && next !== 0x65 && next !== 0x45; // '.', 'e', 'E'
      const digits = i - start - (c === MINUS ? 1 : 0);
      if (isInteger && digits > 15) {
        parts.push(text.slice(last, start), '"', text.slice(start, i), '"');
        last = i;
      } else {
        while (i < n) {
          const d = text.charCodeAt(i);
          if (isDigit(d) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === MINUS) i += 1;
          else break;
        }
      }
      continue;
    }
    i += 1;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join('');
}
