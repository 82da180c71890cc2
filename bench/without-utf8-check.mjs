/**
 * Preloaded (`--import`, after `tsx`) by bench/summarize-utf8.bench.ts: resolves the bundle readers'
 * UTF-8 check (`src/util/invalid-utf8-offsets.ts`) to a version that finds nothing, so the same CLI
 * runs without the check.
 */
import { register } from 'node:module';

const unchecked = new globalThis.URL('./unchecked-utf8-offsets.mjs', import.meta.url).href;
const hooks = `
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  return found.url.endsWith('/src/util/invalid-utf8-offsets.ts')
    ? { url: ${JSON.stringify(unchecked)}, format: 'module', shortCircuit: true }
    : found;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
