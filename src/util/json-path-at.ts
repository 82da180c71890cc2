/**
 * The path, inside the JSON text `bytes`, of the value that byte `offset` belongs to (object keys and
 * array indexes from the root, e.g. `['steps', 2, 'message']`); for an offset inside a key, the path
 * of that key's value. A scan of the bytes up to `offset` (strings and their escapes skipped, no
 * recursion, nothing parsed): it also works on text that is not valid UTF-8, or not valid JSON after
 * `offset`.
 *
 * @example
 * jsonPathAt(Buffer.from('{"a":[1,"x\xff"]}', 'latin1'), 10); // ['a', 1]
 */
export function jsonPathAt(bytes: Uint8Array, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  /** Per open container: true for an object awaiting a key (after `{` or `,`). */
  const awaitingKey: boolean[] = [];
  let i = 0;
  const stop = Math.min(offset, bytes.length);
  while (i < stop) {
    const c = bytes[i] as number;
    if (c === QUOTE) {
      const start = i;
      i += 1;
      while (i < bytes.length && bytes[i] !== QUOTE) i += bytes[i] === BACKSLASH ? 2 : 1;
      const depth = awaitingKey.length;
      if (depth > 0 && awaitingKey[depth - 1] === true) {
        path[depth - 1] = keyText(bytes, start, i + 1);
        awaitingKey[depth - 1] = false;
      }
      i += 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      awaitingKey.push(c === OPEN_OBJECT);
      path.push(c === OPEN_OBJECT ? '' : 0);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      awaitingKey.pop();
      path.pop();
    } else if (c === COMMA && awaitingKey.length > 0) {
      const d = awaitingKey.length - 1;
      const at = path[d];
      if (typeof at === 'number') path[d] = at + 1;
      else awaitingKey[d] = true;
    }
    i += 1;
  }
  return path;
}

function keyText(bytes: Uint8Array, start: number, end: number): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
