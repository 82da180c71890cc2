import { JsonTextColumn } from './json-text-column.js';

/** Elements of an array of plain values serialised at once. */
const BLOCK = 4096;
/** Pieces are joined until they reach this many characters. */
const PIECE_CHARS = 1 << 16;

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** The JSON text of `value` (one of its parts), as the parts `JSON.stringify` would concatenate. */
function* parts(value: unknown): Generator<string> {
  if (value instanceof JsonTextColumn) {
    yield* value.pieces();
    return;
  }
  if (Array.isArray(value)) {
    if (!value.some(isContainer)) {
      // plain values: whole blocks at once (`slice` turns holes into undefined: `null`, as in the whole)
      if (value.length <= BLOCK) {
        yield JSON.stringify(value);
        return;
      }
      yield '[';
      for (let i = 0; i < value.length; i += BLOCK) {
        const text = JSON.stringify(value.slice(i, i + BLOCK));
        yield (i === 0 ? '' : ',') + text.slice(1, -1);
      }
      yield ']';
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) yield ',';
      const item: unknown = value[i];
      if (isContainer(item)) yield* parts(item);
      else yield JSON.stringify(item) ?? 'null';
    }
    yield ']';
    return;
  }
  if (isContainer(value) && !('toJSON' in value)) {
    yield '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (isContainer(item)) yield* parts(item);
      else yield JSON.stringify(item);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value);
}

/**
 * `embedJson(value)` cut into pieces of about 64 K characters, whose concatenation is exactly
 * `embedJson(value)`: a large value (the report's per-trial table) is serialised without ever holding
 * its whole JSON text as one string, nor a copy of it.
 *
 * @example
 * [...embedJsonChunks({ a: '</script>' })].join(''); // '{"a":"\\u003c/script>"}'
 */
export function* embedJsonChunks(value: unknown): Generator<string> {
  let pending: string[] = [];
  let chars = 0;
  for (const part of parts(value)) {
    pending.push(part);
    chars += part.length;
    if (chars >= PIECE_CHARS) {
      yield pending.join('').replace(/</g, '\\u003c');
      pending = [];
      chars = 0;
    }
  }
  if (pending.length > 0) yield pending.join('').replace(/</g, '\\u003c');
}
