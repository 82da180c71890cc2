import type { CandidateEvidence } from '../evidence/candidate-evidence.js';
import type { TaskSpec } from './task.js';
import type { Trial } from './trial.js';
import type { TrialDiagnostic } from './trial-diagnostic.js';

/** Where an item came from, for error messages and diagnostics. */
export interface ItemOrigin {
  file: string;
  /** 1-based line for line-oriented inputs. */
  line?: number;
  /** Byte offset for binary inputs. */
  offset?: number;
}

/**
 * One trial flowing through the pipeline (sources → operators → sinks): the SDK-shaped trial record,
 * its live evidence (handles with any in-memory trace data already attached), and whatever task
 * information the source knows (a bundle's task spec; OTLP/ATIF sources know only the id).
 */
export interface TrialItem {
  trial: Trial;
  evidence: CandidateEvidence | null;
  task: TaskSpec | null;
  origin: ItemOrigin;
  /** Problems with this trial's input that the run went on past (absent or empty: none). */
  diagnostics?: TrialDiagnostic[];
}
