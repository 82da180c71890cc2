import type { z } from 'zod';
import type { rowSchemas } from '../bundle/row-schemas.js';

/**
 * `AgentEvalTrial` (spec §4) as stored in `trials.jsonl`: the output of `rowSchemas.trial`, which
 * fills the SDK's defaults (every measurement key present: null = not measured, 0 = measured zero).
 *
 * @example
 * const t: Trial = { id: 't1', task_id: 'A', status: 'failed', output: null, evidence: null, error: null, measurements, metadata: {} };
 */
export type Trial = z.output<typeof rowSchemas.trial>;
export type TrialStatus = Trial['status'];
export type AgentOutput = NonNullable<Trial['output']>;
export type TrialError = NonNullable<Trial['error']>;
export type TrialMeasurements = Trial['measurements'];
export type EvidenceRecord = NonNullable<Trial['evidence']>;
/** An evidence descriptor (spec §5): at least one of `ref`/`data`. */
export type EvidenceDescriptor = EvidenceRecord['descriptors'][string];

export const MEASUREMENT_KEYS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cache_creation_tokens',
  'cache_read_tokens',
  'runtime_sec',
  'cost_usd',
] as const satisfies readonly (keyof TrialMeasurements)[];
