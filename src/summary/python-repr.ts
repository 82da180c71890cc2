/**
 * Python's `repr()` of a `str`: single quotes unless the text contains `'` and no `"`, with
 * backslash, the chosen quote and control characters escaped.
 *
 * @example
 * pythonRepr('reward.reward'); // "'reward.reward'"
 * pythonRepr("it's"); // "\"it's\""
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}
