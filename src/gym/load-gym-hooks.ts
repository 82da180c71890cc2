import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GymHooks } from './compute/gym-hooks.js';
import { GymInputError } from './gym-input-error.js';

/**
 * Loads `computeMetrics` / `getKeyMetrics` from a hooks module (JavaScript, or TypeScript through
 * tsx's `tsImport` like `evalstream.config.ts`) as named exports or as members of its default export,
 * checked at this edge: at least one must be there and each must be a function.
 *
 * @example
 * const hooks = await loadGymHooks('gym-hooks.mjs'); // export function computeMetrics(tasks) { … }
 */
export async function loadGymHooks(file: string): Promise<GymHooks> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new GymInputError('bad_hooks', `Cannot load hooks module '${file}': ${(error as Error).message}`, {
      file,
    });
  }
  const candidate =
    mod['computeMetrics'] === undefined &&
    mod['getKeyMetrics'] === undefined &&
    typeof mod['default'] === 'object'
      ? (mod['default'] as Record<string, unknown>)
      : mod;
  const hooks: GymHooks = {};
  for (const name of ['computeMetrics', 'getKeyMetrics'] as const) {
    const hook = candidate[name];
    if (hook === undefined) continue;
    if (typeof hook !== 'function')
      throw new GymInputError('bad_hooks', `Hooks module '${file}': ${name} must be a function`, { file });
    (hooks as Record<string, unknown>)[name] = hook;
  }
  if (hooks.computeMetrics === undefined && hooks.getKeyMetrics === undefined) {
    throw new GymInputError(
      'bad_hooks',
      `Hooks module '${file}' exports neither computeMetrics nor getKeyMetrics`,
      { file },
    );
  }
  return hooks;
}
