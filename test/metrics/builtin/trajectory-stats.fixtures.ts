import { fileURLToPath } from 'node:url';
import { CandidateEvidence } from '../../../src/evidence/candidate-evidence.js';
import { buildMetricInput } from '../../../src/metrics/build-metric-input.js';
import { validateMetricResult } from '../../../src/metrics/validate-metric-result.js';
import type { JsonValue } from '../../../src/model/json-value.js';
import type { Metric } from '../../../src/model/metric.js';
import type { EvidenceDescriptor, TrialMeasurements } from '../../../src/model/trial.js';
import { makeTask, makeTrialItem, NO_MEASUREMENTS } from '../make-trial-item.js';

/** Absolute path of a file under test/fixtures. */
export const fixturePath = (rel: string): string =>
  fileURLToPath(new URL(`../../fixtures/${rel}`, import.meta.url));

const trace = (format: string, ref: string | null, data: JsonValue = null): EvidenceDescriptor => ({
  kind: 'trace',
  format,
  ref,
  data,
  description: null,
  metadata: {},
});

/** Evidence whose primary trace is an ATIF file under test/fixtures/atif. */
export const atifFile = (name: string): CandidateEvidence =>
  new CandidateEvidence({ trace: trace('atif', fixturePath(`atif/${name}`)) });

/** Evidence whose primary trace is inline ATIF data. */
export const atifData = (data: JsonValue): CandidateEvidence =>
  new CandidateEvidence({ trace: trace('atif', null, data) });

/** Evidence whose primary trace is the OTLP trace of the Harbor fixture's `fix-bug` trial. */
export const harborOtlp = (): CandidateEvidence =>
  new CandidateEvidence({
    trace: trace('otlp', fixturePath('harbor/job-2026-01-05/fix-bug__Q9rT2wX/traces/run.jsonl')),
  });

/** Runs a metric on a trial with the given evidence; outputs as name → value, validated against the spec. */
export async function runOnEvidence(
  metric: Metric,
  evidence: CandidateEvidence | null,
  measurements: TrialMeasurements = NO_MEASUREMENTS,
): Promise<Record<string, unknown>> {
  const item = { ...makeTrialItem({ measurements }), evidence };
  const input = buildMetricInput(item, makeTask(), 0);
  const result = validateMetricResult(await metric.computeScores(input), metric.outputSpec());
  return Object.fromEntries(result.outputs.map((o) => [o.name, o.value]));
}
