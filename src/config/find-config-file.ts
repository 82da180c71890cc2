import { access } from 'node:fs/promises';
import { join } from 'node:path';

/** Config file names looked for, in this order. */
const NAMES = [
  'evalstream.config.ts',
  'evalstream.config.mts',
  'evalstream.config.js',
  'evalstream.config.mjs',
  'evalstream.config.json',
];

/**
 * The first `evalstream.config.{ts,mts,js,mjs,json}` in `dir`, or null.
 *
 * @example
 * const file = (await findConfigFile(process.cwd())) ?? undefined;
 */
export async function findConfigFile(dir: string): Promise<string | null> {
  for (const name of NAMES) {
    const candidate = join(dir, name);
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next name
    }
  }
  return null;
}
