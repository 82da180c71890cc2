/**
 * Malformed JSON found by {@link JsonCursor}: `offset` is the 0-based byte offset within the scanned
 * line where the problem is; `message` says what was expected.
 *
 * @example
 * throw new JsonSyntaxError(12, "expected ':' after an object key");
 */
export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}
