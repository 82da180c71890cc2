import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import type { TraceLoader } from '../evidence/trace-loader.js';
import type { EvidenceDescriptor, Trial } from '../model/trial.js';
import { compactAtif } from './compact-atif.js';
import { compactToolCalls } from './compact-tool-calls.js';
import type { CompactTrajectory } from './report-data.js';

/** Where {@link readTrialTrajectory} finds a trial's trace. */
export interface TrialTrajectorySource {
  /** The trial's live evidence as the pipeline carries it (traces already loaded stay loaded). */
  evidence?: CandidateEvidence | null;
  /** Directory that relative refs resolve against (the bundle directory); default the cwd. */
  baseDir?: string;
  /** Longest string kept (default 4000). */
  maxText?: number;
  /** Loaders for evidence read from descriptors (e.g. one `sharedOtlpFileLoader` for a whole run). */
  traceLoaders?: Record<string, TraceLoader>;
}

/** The trace the report shows: `trace`, else `trace:atif`, else the first descriptor of kind `trace`. */
function traceDescriptorOf(trial: Trial): [string, EvidenceDescriptor] | null {
  const descriptors = trial.evidence?.descriptors;
  if (!descriptors) return null;
  for (const name of ['trace', 'trace:atif']) {
    const d = descriptors[name];
    if (d) return [name, d];
  }
  return Object.entries(descriptors).find(([, d]) => d.kind === 'trace') ?? null;
}

async function readRawAtif(descriptor: EvidenceDescriptor, baseDir: string): Promise<unknown> {
  if (descriptor.data !== null && descriptor.data !== undefined) {
    return typeof descriptor.data === 'string' ? JSON.parse(descriptor.data) : descriptor.data;
  }
  const ref = descriptor.ref as string;
  const path = ref.startsWith('file://') ? fileURLToPath(ref) : isAbsolute(ref) ? ref : resolve(baseDir, ref);
  return JSON.parse(await readFile(path, 'utf8'));
}

/**
 * One trial's trajectory, compacted for the report, read while the trial is in hand: ATIF steps (read
 * leniently: a trajectory the strict reader refuses is still shown), or the normalised tool calls of
 * an OTLP trace through the trial's evidence handles. Resolves to null when the trial has no trace, or
 * to a note saying why it is not shown; never rejects for one bad trial.
 *
 * @example
 * const trajectory = await readTrialTrajectory(item.trial, { evidence: item.evidence });
 */
export async function readTrialTrajectory(
  trial: Trial,
  source: TrialTrajectorySource = {},
): Promise<CompactTrajectory | string | null> {
  const found = traceDescriptorOf(trial);
  if (!found || !trial.evidence) return null;
  const [name, descriptor] = found;
  if ((descriptor.data === null || descriptor.data === undefined) && !descriptor.ref) return null;
  const maxText = source.maxText ?? 4000;
  const baseDir = source.baseDir ?? source.evidence?.baseDir ?? process.cwd();
  const format = descriptor.format ?? 'atif';
  try {
    if (format === 'otlp') {
      const evidence =
        source.evidence ??
        new CandidateEvidence(trial.evidence, {
          baseDir,
          ...(source.traceLoaders === undefined ? {} : { traceLoaders: source.traceLoaders }),
        });
      const handle = await evidence.trace(name);
      return compactToolCalls('otlp', handle.normalizedToolCalls(), { maxText });
    }
    if (format !== 'atif') return `Trace in format '${format}' is not shown in the report.`;
    let raw: unknown = null;
    if (source.evidence) {
      try {
        raw = await (await source.evidence.trace(name, 'atif')).trace();
      } catch {
        raw = null; // the strict reader refused it: read it leniently below
      }
    }
    raw ??= await readRawAtif(descriptor, baseDir);
    return compactAtif(raw, { maxText }) ?? 'The trace is not an ATIF trajectory (no steps).';
  } catch (error) {
    return `Trajectory could not be read: ${(error as Error).message}`;
  }
}
