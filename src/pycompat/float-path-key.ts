/**
 * The key under which a value's location inside a row is recorded in a float-path set (see
 * `parsePythonJson` and `pythonJson`): path segments joined by NUL; the root is `''`.
 *
 * @example
 * floatPathKey(['outputs', 0, 'value']); // 'outputs\u00000\u0000value'
 */
export function floatPathKey(segments: readonly (string | number)[]): string {
  return segments.join('\u0000');
}
