import type { TrialItem } from '../model/trial-item.js';
import type { PullSource } from '../pipeline/pull-source.js';
import { fromAtifFiles } from '../sources/from-atif-files.js';
import { fromBundle } from '../sources/from-bundle.js';
import { fromGymRollouts } from '../sources/from-gym-rollouts.js';
import { fromHarborJob } from '../sources/from-harbor-job.js';
import { fromOtlpFiles } from '../sources/from-otlp-files.js';
import type { InputError } from '../sources/input-error.js';
import type { WorkChunk } from './work-chunk.js';

/**
 * The trials of one chunk, read by the source its kind names, exactly as that source reads them in a
 * whole run. `trialIdCounts` (ATIF) starts from the chunk's counts and is left holding the counts
 * after it; OTLP payloads that do not decode go to `onIssue` and are skipped.
 *
 * @example
 * for await (const item of readWorkChunk({ kind: 'bundle', dir: 'runs/r1' }, { trialIdCounts: new Map(), onIssue: warn })) console.log(item.trial.id);
 */
export function readWorkChunk(
  chunk: WorkChunk,
  options: { trialIdCounts: Map<string, number>; onIssue: (issue: InputError) => void },
): PullSource<TrialItem> {
  switch (chunk.kind) {
    case 'atif':
      return fromAtifFiles(chunk.files, { trialIdCounts: options.trialIdCounts });
    case 'harbor':
      return fromHarborJob(chunk.dir, chunk.names === null ? {} : { names: chunk.names });
    case 'bundle':
      return fromBundle(chunk.dir);
    case 'gym':
      return fromGymRollouts(chunk.files);
    case 'otlp':
      return fromOtlpFiles(chunk.files, { onIssue: options.onIssue });
  }
}
