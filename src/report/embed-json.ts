/**
 * Serialises a value as JSON that can sit inside `<script type="application/json">`: every `<` is
 * written as `\u003c`, so no `</script>` or `<!--` can end or confuse the block. The value must
 * already be strict JSON (see `compactJson`); `JSON.parse` of the script's text returns it unchanged.
 *
 * @example
 * embedJson({ a: '</script>' }); // '{"a":"\\u003c/script>"}'
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
