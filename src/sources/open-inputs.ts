import type { OtlpGroupingConfig } from '../evidence/otlp/otlp-trial-grouper.js';
import type { TrialItem } from '../model/trial-item.js';
import { PullSource } from '../pipeline/pull-source.js';
import type { InputFormat } from './detect-format.js';
import { fromAtifFiles } from './from-atif-files.js';
import { fromBundle } from './from-bundle.js';
import { fromGymRollouts } from './from-gym-rollouts.js';
import { fromHarborJob } from './from-harbor-job.js';
import { fromOtlpFiles } from './from-otlp-files.js';
import type { InputError } from './input-error.js';
import { planInputs, type InputPlan } from './plan-inputs.js';

/** Options of `openInputs`: the format (default `auto`) and the OTLP span-grouping rule. */
export interface OpenInputsOptions extends OtlpGroupingConfig {
  format?: 'auto' | InputFormat;
  /** Progress of the file readers that report it (OTLP bytes, Gym bytes, ATIF/Harbor trials). */
  onProgress?: (progress: { file: string; bytesRead?: number; trials?: number }) => void;
  /**
   * Problems a source goes on past, each reported here: an OTLP payload, a Gym rollout line, an ATIF
   * file or a Harbor `result.json` skipped as bad, spans and log records that join no trial (see
   * `FromOtlpFilesOptions.onIssue`), a bundle's records of such problems (`FromBundleOptions.onIssue`).
   * Without it a bad payload or file ends the stream.
   */
  onIssue?: (issue: InputError) => void;
}

/**
 * Every trial of the given inputs as one lazy stream (a `PullSource`), each input read by its source
 * (`fromBundle`, `fromHarborJob`, `fromAtifFiles`, `fromOtlpFiles` with the grouping options,
 * `fromGymRollouts`) in the order `planInputs` decides; an input whose format cannot be told errors
 * with an `InputError` before anything is read.
 *
 * @example
 * openInputs(['jobs/2026-01-05', 'extra/run.atif.json']).subscribe((i) => console.log(i.trial.id));
 * openInputs(['dump.json'], { format: 'otlp', trialKeys: ['session.id'] });
 */
export function openInputs(
  inputs: readonly string[],
  options: OpenInputsOptions = {},
): PullSource<TrialItem> {
  return new PullSource(async function* () {
    for (const p of await planInputs(inputs, options.format ?? 'auto')) yield* open(p, options);
  });
}

function open(p: InputPlan, options: OpenInputsOptions): PullSource<TrialItem> {
  const { format: _format, onProgress, onIssue, ...grouping } = options;
  const progress = onProgress === undefined ? {} : { onProgress };
  switch (p.kind) {
    case 'bundle':
      return fromBundle(p.dir, onIssue === undefined ? {} : { onIssue });
    case 'harbor':
      return fromHarborJob(p.dir, { ...progress, ...(onIssue === undefined ? {} : { onIssue }) });
    case 'atif':
      return fromAtifFiles(p.files, { ...progress, ...(onIssue === undefined ? {} : { onIssue }) });
    case 'gym':
      return fromGymRollouts(p.files, { ...progress, ...(onIssue === undefined ? {} : { onIssue }) });
    case 'otlp':
      return fromOtlpFiles(p.files, {
        ...grouping,
        ...progress,
        ...(onIssue === undefined ? {} : { onIssue }),
      });
  }
}
