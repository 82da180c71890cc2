/** One trial's value of one output: booleans as 0/1. */
export interface TrialValue {
  trialId: string;
  value: number;
}

/**
 * The per-trial values of a run that `compare` needs, whatever it was read from: per output, per task
 * (in the run's task order), the finite values in trial order.
 *
 * @example
 * const run: RunValues = { source: 'runs/a', runId: 'a', outputs: new Map([['judge.score', new Map([['t1', [{ trialId: 'x', value: 1 }]]])]]), binary: new Set(['judge.score']) };
 */
export interface RunValues {
  /** Where the run was read from (as given on the command line). */
  source: string;
  runId: string | null;
  /** Rows of the bundle's `diagnostics.jsonl` (the trials' input diagnostics); absent: no such file. */
  diagnostics?: number;
  outputs: Map<string, Map<string, TrialValue[]>>;
  /** Outputs whose every value is 0/1 or a boolean. */
  binary: Set<string>;
}
