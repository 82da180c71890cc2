/**
 * Formats a JSON path as the decoders name fields: `resourceSpans[0].scopeSpans[0].spans[1].name`.
 * With `plainKey`, a key it does not match is written quoted in brackets (`a["odd key"]`).
 *
 * @example
 * formatJsonPath(['steps', 2, 'message']); // 'steps[2].message'
 * formatJsonPath(['a', 'b c'], /^\w+$/); // 'a["b c"]'
 */
export function formatJsonPath(path: readonly PropertyKey[], plainKey?: RegExp): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && (plainKey === undefined || plainKey.test(p)))
      out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}
