/**
 * Writes a zod issue path the way a config author reads it: keys dotted, indexes bracketed.
 *
 * @example
 * formatConfigPath(['metrics', 'default', 1, 'options', 'mode']); // 'metrics.default[1].options.mode'
 */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
