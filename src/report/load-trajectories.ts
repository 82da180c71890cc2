import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvidenceDescriptor, Trial } from '../model/trial.js';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import { sharedOtlpFileLoader } from '../evidence/otlp/shared-otlp-file-loader.js';
import { compactAtif } from './compact-atif.js';
import { compactToolCalls } from './compact-tool-calls.js';
import type { ReportBundle } from './report-bundle.js';
import type { CompactTrajectory } from './report-data.js';
import type { ReportOptions } from './report-options.js';

/** What {@link loadTrajectories} found: per index into `bundle.trials`, a trajectory or a note. */
export interface LoadedTrajectories {
  byTrial: Map<number, CompactTrajectory | string>;
  notes: string[];
}

const DEFAULT_BUDGET = 16 * 1024 * 1024;

/** The trace the report shows: `trace`, else `trace:atif`, else the first descriptor of kind `trace`. */
function traceDescriptor(trial: Trial): [string, EvidenceDescriptor] | null {
  const descriptors = trial.evidence?.descriptors;
  if (!descriptors) return null;
  for (const name of ['trace', 'trace:atif']) {
    const d = descriptors[name];
    if (d) return [name, d];
  }
  return Object.entries(descriptors).find(([, d]) => d.kind === 'trace') ?? null;
}

async function readAtif(descriptor: EvidenceDescriptor, bundleDir: string | undefined): Promise<unknown> {
  if (descriptor.data !== null && descriptor.data !== undefined) {
    return typeof descriptor.data === 'string' ? JSON.parse(descriptor.data) : descriptor.data;
  }
  const ref = descriptor.ref as string;
  const path = ref.startsWith('file://')
    ? fileURLToPath(ref)
    : isAbsolute(ref)
      ? ref
      : resolve(bundleDir ?? '.', ref);
  return JSON.parse(await readFile(path, 'utf8'));
}

/**
 * Loads and compacts the trajectory of every trial for the report: inline or referenced ATIF (steps,
 * read leniently), OTLP (its normalised tool calls, through the evidence handles), refs resolved
 * against `bundleDir`; or whatever `options.trajectoryOf` returns. With `trajectories:
 * 'auto'` embedding stops once `maxTrajectoryBytes` of compact JSON is used; later trials get a note
 * instead. Unreadable traces become notes too; nothing here throws for one bad trial.
 *
 * @example
 * const { byTrial, notes } = await loadTrajectories(bundle, { bundleDir: 'runs/r1' });
 */
export async function loadTrajectories(
  bundle: ReportBundle,
  options: ReportOptions = {},
): Promise<LoadedTrajectories> {
  const mode = options.trajectories ?? 'auto';
  const byTrial = new Map<number, CompactTrajectory | string>();
  const notes: string[] = [];
  if (mode === 'none') {
    if (bundle.trials.some((t) => traceDescriptor(t) !== null)) {
      notes.push('Trajectories are not embedded in this report (rebuild with --trajectories auto or all).');
    }
    return { byTrial, notes };
  }
  const budget = mode === 'all' ? Infinity : (options.maxTrajectoryBytes ?? DEFAULT_BUDGET);
  const maxText = options.maxTextChars ?? 4000;
  let used = 0;
  let skipped = 0;
  // one loader for the whole report: trials that are traces in one dump read the dump once
  const otlp = sharedOtlpFileLoader();
  const load = async (trial: Trial): Promise<CompactTrajectory | string | null> => {
    if (options.trajectoryOf) return options.trajectoryOf(trial);
    const found = traceDescriptor(trial);
    if (!found) return null;
    const [name, descriptor] = found;
    if ((descriptor.data === null || descriptor.data === undefined) && !descriptor.ref) return null;
    const format = descriptor.format ?? 'atif';
    if (format === 'otlp' && trial.evidence) {
      const evidence = new CandidateEvidence(trial.evidence, {
        baseDir: options.bundleDir ?? process.cwd(),
        traceLoaders: { otlp },
      });
      const handle = await evidence.trace(name);
      return compactToolCalls('otlp', handle.normalizedToolCalls(), { maxText });
    }
    if (format !== 'atif') return `Trace in format '${format}' is not shown in the report.`;
    const compact = compactAtif(await readAtif(descriptor, options.bundleDir), { maxText });
    return compact ?? 'The trace is not an ATIF trajectory (no steps).';
  };
  // A small pool keeps file reads overlapping without opening thousands of files at once.
  const queue = bundle.trials.map((trial, index) => ({ trial, index }));
  let next = 0;
  const results: (CompactTrajectory | string | null)[] = new Array<CompactTrajectory | string | null>(
    queue.length,
  );
  const worker = async (): Promise<void> => {
    while (next < queue.length && used < budget) {
      const item = queue[next] as { trial: Trial; index: number };
      next += 1;
      try {
        const result = await load(item.trial);
        if (result !== null && typeof result === 'object') used += JSON.stringify(result).length;
        results[item.index] = result;
      } catch (error) {
        results[item.index] = `Trajectory could not be read: ${(error as Error).message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => worker()));
  queue.forEach(({ trial, index }) => {
    const result = results[index];
    if (result === undefined) {
      if (traceDescriptor(trial) !== null || options.trajectoryOf) {
        skipped += 1;
        byTrial.set(
          index,
          'Not embedded: the report’s trajectory budget was used up (rebuild with --trajectories all).',
        );
      }
    } else if (result !== null) byTrial.set(index, result);
  });
  if (skipped > 0) {
    notes.push(
      `Trajectories of ${skipped} trials are not embedded: the ${(budget / 1048576).toFixed(0)} MiB trajectory budget was used up.`,
    );
  }
  return { byTrial, notes };
}
