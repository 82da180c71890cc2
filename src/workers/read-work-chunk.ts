import type { TrialItem } from '../model/trial-item.js';
import type { PullSource } from '../pipeline/pull-source.js';
import { fromAtifFiles } from '../sources/from-atif-files.js';
import { fromBundle } from '../sources/from-bundle.js';
import { fromGymRollouts } from '../sources/from-gym-rollouts.js';
import { fromHarborJob } from '../sources/from-harbor-job.js';
import type { WorkChunk } from './work-chunk.js';

/**
 * The trials of one chunk (other than `otlp-frames`, see `readOtlpFrames`), read by the source its kind names, exactly as that source reads them in a
 * whole run. `trialIdCounts` (ATIF) starts from the chunk's counts and is left holding the counts
 * after it.
 *
 * @example
 * for await (const item of readWorkChunk({ kind: 'bundle', dir: 'runs/r1' }, new Map())) console.log(item.trial.id);
 */
export function readWorkChunk(
  chunk: Exclude<WorkChunk, { kind: 'otlp-frames' }>,
  trialIdCounts: Map<string, number>,
): PullSource<TrialItem> {
  switch (chunk.kind) {
    case 'atif':
      return fromAtifFiles(chunk.files, { trialIdCounts });
    case 'harbor':
      return fromHarborJob(chunk.dir, chunk.names === null ? {} : { names: chunk.names });
    case 'bundle':
      return fromBundle(chunk.dir);
    case 'gym':
      return fromGymRollouts(chunk.files);
  }
}
