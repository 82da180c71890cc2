import type { DuckDBConnection } from '@duckdb/node-api';
import type { CandidateEvidence } from '../../evidence/candidate-evidence.js';
import { StoreRows, type StoreTrial } from './store-rows.js';
import { traceEvidenceOf } from './trace-evidence-of.js';

/**
 * Appends trials to the store with the spans and tool calls of each trial's primary trace (when
 * `evidenceOf` gives its evidence), in trial order from ordinal `first`, in batches of `batchRows`
 * rows; returns how many trials were appended.
 *
 * @example
 * await appendTrials(connection, 'r1', trials, bundleEvidenceOf(dir)); // → 3
 */
export async function appendTrials(
  connection: DuckDBConnection,
  runId: string,
  trials: Iterable<StoreTrial> | AsyncIterable<StoreTrial>,
  evidenceOf: ((trial: StoreTrial) => CandidateEvidence | null) | undefined,
  batchRows = 20_000,
  rows: StoreRows = new StoreRows(runId),
): Promise<number> {
  let ordinal = 0;
  for await (const trial of trials) {
    rows.addTrial(ordinal, trial);
    const evidence = evidenceOf?.(trial) ?? null;
    if (evidence !== null) {
      const trace = await traceEvidenceOf(evidence);
      if (trace !== null) {
        rows.addToolCalls(ordinal, trial, trace.toolCalls);
        rows.addSpans(ordinal, trial, trace.spans);
      }
    }
    ordinal++;
    if (rows.rowCount >= batchRows) await rows.appendTo(connection);
  }
  await rows.appendTo(connection);
  return ordinal;
}
