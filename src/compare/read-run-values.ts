import { existsSync, statSync } from 'node:fs';
import { BundleReadError } from '../bundle/bundle-read-error.js';
import { InputError } from '../sources/input-error.js';
import { isDuckDBFile } from './is-duckdb-file.js';
import { readBundleValues } from './read-bundle-values.js';
import { readGymRolloutValues } from './read-gym-rollout-values.js';
import { readStoreValues } from './read-store-values.js';
import { parseRunRef } from './parse-run-ref.js';
import type { RunValues } from './run-values.js';

/**
 * Reads a run for `compare`: a directory is a run bundle (its `summary.json`), a DuckDB file an
 * evalstream store (`store.duckdb#RUN_ID`, or `runId`, picks a run; default the newest), a `.jsonl`
 * file NeMo Gym rollouts. Anything else throws a `BundleReadError` naming the path; a run id given
 * for a bundle or rollouts file throws an `InputError`.
 *
 * @example
 * const a = await readRunValues('runs/a');
 * const b = await readRunValues('runs/all.duckdb#R2');
 */
export async function readRunValues(arg: string, runId: string | null = null): Promise<RunValues> {
  const ref = parseRunRef(arg);
  const path = ref.path;
  if (ref.runId !== null && runId !== null && ref.runId !== runId)
    throw new InputError(`two run ids given: '${ref.runId}' and '${runId}'`, { file: path, field: 'run_id' });
  const chosen = runId ?? ref.runId;
  if (isDuckDBFile(path)) return readStoreValues(path, chosen, arg);
  if (chosen !== null && existsSync(path))
    throw new InputError(`a run id ('${chosen}') only chooses a run of a DuckDB store`, {
      file: path,
      field: 'run_id',
    });
  if (existsSync(path) && statSync(path).isDirectory()) return readBundleValues(path);
  if (existsSync(path) && /\.jsonl$/i.test(path)) return readGymRolloutValues(path);
  throw new BundleReadError([
    {
      code: existsSync(path) ? 'unreadable_file' : 'missing_file',
      file: path,
      path: [],
      message: existsSync(path)
        ? 'not a run bundle directory, a DuckDB store or a Gym rollouts .jsonl file'
        : 'no such file or directory',
    },
  ]);
}
