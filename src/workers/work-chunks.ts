import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listHarborEntries } from '../sources/list-harbor-entries.js';
import type { InputPlan } from '../sources/plan-inputs.js';
import type { WorkChunk } from './work-chunk.js';

/** ATIF files read by one worker at a time. */
const ATIF_FILES_PER_CHUNK = 32;
/** Harbor trial directories read by one worker at a time. */
const HARBOR_TRIALS_PER_CHUNK = 16;

/**
 * The chunks of a run's inputs in reading order, listed lazily: ATIF files and Harbor trial
 * directories in slices (each trial stands alone), a bundle, the Gym files and the OTLP files whole.
 *
 * @example
 * for await (const chunk of workChunks(await planInputs(inputs, 'auto'))) dispatch(chunk);
 */
export async function* workChunks(plans: readonly InputPlan[]): AsyncGenerator<WorkChunk> {
  for (const plan of plans) {
    switch (plan.kind) {
      case 'atif':
        for (let i = 0; i < plan.files.length; i += ATIF_FILES_PER_CHUNK) {
          yield { kind: 'atif', files: plan.files.slice(i, i + ATIF_FILES_PER_CHUNK), trialIdCounts: [] };
        }
        break;
      case 'harbor': {
        if (await isOneTrial(plan.dir)) {
          yield { kind: 'harbor', dir: plan.dir, names: null };
          break;
        }
        const names = await listHarborEntries(plan.dir);
        for (let i = 0; i < names.length; i += HARBOR_TRIALS_PER_CHUNK) {
          yield { kind: 'harbor', dir: plan.dir, names: names.slice(i, i + HARBOR_TRIALS_PER_CHUNK) };
        }
        break;
      }
      case 'bundle':
        yield { kind: 'bundle', dir: plan.dir };
        break;
      case 'gym':
      case 'otlp':
        yield { kind: plan.kind, files: plan.files };
        break;
    }
  }
}

/**
 * Whether `fromHarborJob` reads `dir` as one trial directory, or cannot be sure before reading (a
 * `result.json` that does not parse): then one worker reads it whole, as one pass would.
 */
async function isOneTrial(dir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(dir, 'result.json'), 'utf8');
  } catch {
    return false;
  }
  try {
    const raw = JSON.parse(text) as unknown;
    return raw === null || typeof raw !== 'object' || 'trial_name' in raw;
  } catch {
    return true;
  }
}
