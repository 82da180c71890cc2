import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import type { GymHooks } from './compute/gym-hooks.js';
import { GymInputError } from './gym-input-error.js';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  message: 'must be a function',
});
const hooksSchema = z.object({ computeMetrics: fn.optional(), getKeyMetrics: fn.optional() });

/**
 * Loads `computeMetrics` / `getKeyMetrics` from a hooks module (JavaScript, or TypeScript through
 * tsx's `tsImport` like `evalstream.config.ts`) as named exports or as members of its default export,
 * validated at this edge: at least one must be there and each must be a function.
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
  const parsed = hooksSchema.safeParse({
    computeMetrics: candidate['computeMetrics'],
    getKeyMetrics: candidate['getKeyMetrics'],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GymInputError(
      'bad_hooks',
      `Hooks module '${file}': ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`,
      {
        file,
      },
    );
  }
  if (parsed.data.computeMetrics === undefined && parsed.data.getKeyMetrics === undefined) {
    throw new GymInputError(
      'bad_hooks',
      `Hooks module '${file}' exports neither computeMetrics nor getKeyMetrics`,
      { file },
    );
  }
  const hooks: GymHooks = {};
  if (parsed.data.computeMetrics)
    hooks.computeMetrics = parsed.data.computeMetrics as NonNullable<GymHooks['computeMetrics']>;
  if (parsed.data.getKeyMetrics)
    hooks.getKeyMetrics = parsed.data.getKeyMetrics as NonNullable<GymHooks['getKeyMetrics']>;
  return hooks;
}
