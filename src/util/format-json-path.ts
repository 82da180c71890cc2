/**
 * Formats a JSON path as the decoders name fields: `resourceSpans[0].scopeSpans[0].spans[1].name`.
 *
 * @example
 * formatJsonPath(['steps', 2, 'message']); // 'steps[2].message'
 */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out;
}
