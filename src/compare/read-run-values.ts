import { existsSync, statSync } from 'node:fs';
import { BundleReadError } from '../bundle/bundle-read-error.js';
import { readBundleValues } from './read-bundle-values.js';
import { readGymRolloutValues } from './read-gym-rollout-values.js';
import type { RunValues } from './run-values.js';

/**
 * Reads a run for `compare`: a directory is a run bundle (its `summary.json`), a `.jsonl` file NeMo
 * Gym rollouts. Anything else throws a `BundleReadError` naming the path.
 *
 * @example
 * const a = await readRunValues('runs/a');
 */
export async function readRunValues(path: string): Promise<RunValues> {
  if (existsSync(path) && statSync(path).isDirectory()) return readBundleValues(path);
  if (existsSync(path) && /\.jsonl$/i.test(path)) return readGymRolloutValues(path);
  throw new BundleReadError([
    {
      code: existsSync(path) ? 'unreadable_file' : 'missing_file',
      file: path,
      path: [],
      message: existsSync(path)
        ? 'not a run bundle directory or a Gym rollouts .jsonl file'
        : 'no such file or directory',
    },
  ]);
}
