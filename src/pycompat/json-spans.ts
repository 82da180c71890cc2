/**
 * Where the members of a JSON object (or the items of an array) lie in a text that `JSON.parse` has
 * already accepted. `JSON.parse` validates and decodes, but it drops what Python keeps: whether a
 * number was written as an int (`1`) or a float (`1.0`), the digits of ints beyond 2^53, and the
 * written order of keys that look like array indices (JavaScript moves them first). The spans give
 * back each value's literal text and the keys in written order; they never validate anything.
 *
 * @example
 * const spans = new JsonSpans();
 * const text = '{"a": 1.0, "b": [2]}';
 * const m = spans.members(text, 0); // [1, 4, 6, 9, 11, 14, 16, 19]: key start/end, value start/end
 * text.slice(m[2], m[3]); // '1.0'
 */
export class JsonSpans {
  /** Whether whitespace was seen between tokens since the last {@link reset}. */
  sawWhitespace = false;

  reset(): void {
    this.sawWhitespace = false;
  }

  /** The members of the nested object chosen by the last {@link members} call's `descend`, if any. */
  nested: number[] | null = null;

  /**
   * The members of the object whose `{` is at `at`: four numbers per member, the key's span (quotes
   * included) and the value's span. When `descend` answers true for a member whose value is an
   * object, that object's members are read in the same pass into {@link nested} (the last such
   * member wins).
   */
  members(text: string, at: number, descend?: (keyStart: number, keyEnd: number) => boolean): number[] {
    this.nested = null;
    const out: number[] = [];
    this.walkObject(text, at, out, descend);
    return out;
  }

  private walkObject(
    text: string,
    at: number,
    out: number[],
    descend?: (keyStart: number, keyEnd: number) => boolean,
  ): number {
    let i = this.space(text, at + 1);
    if (text.charCodeAt(i) === 0x7d) return i + 1;
    for (;;) {
      const keyEnd = skipString(text, i);
      const valueStart = this.space(text, this.space(text, keyEnd) + 1);
      let valueEnd: number;
      if (descend !== undefined && text.charCodeAt(valueStart) === 0x7b && descend(i, keyEnd)) {
        this.nested = [];
        valueEnd = this.walkObject(text, valueStart, this.nested);
      } else valueEnd = this.skipValue(text, valueStart);
      out.push(i, keyEnd, valueStart, valueEnd);
      i = this.space(text, valueEnd);
      if (text.charCodeAt(i) === 0x7d) return i + 1;
      i = this.space(text, i + 1);
    }
  }

  /** The items of the array whose `[` is at `at`: two numbers per item, its start and end. */
  items(text: string, at: number): number[] {
    const out: number[] = [];
    let i = this.space(text, at + 1);
    if (text.charCodeAt(i) === 0x5d) return out;
    for (;;) {
      const end = this.skipValue(text, i);
      out.push(i, end);
      i = this.space(text, end);
      if (text.charCodeAt(i) === 0x5d) return out;
      i = this.space(text, i + 1);
    }
  }

  /** The end of the value that starts at `at`. */
  skipValue(text: string, at: number): number {
    let c = text.charCodeAt(at);
    if (c === 0x22) return skipString(text, at);
    let i = at;
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      for (;;) {
        c = text.charCodeAt(i);
        if (c === 0x22) {
          i = skipString(text, i);
          continue;
        }
        if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          if (--depth === 0) return i + 1;
        } else if (isSpace(c)) this.sawWhitespace = true;
        i++;
      }
    }
    // a number or a literal: up to the next delimiter
    while (i < text.length) {
      c = text.charCodeAt(i);
      if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
      i++;
    }
    return i;
  }

  private space(text: string, at: number): number {
    let i = at;
    while (isSpace(text.charCodeAt(i))) i++;
    if (i !== at) this.sawWhitespace = true;
    return i;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The end (past the closing quote) of the string whose opening quote is at `at`. */
function skipString(text: string, at: number): number {
  let from = at + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    // an even number of backslashes before the quote: it closes the string
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}
