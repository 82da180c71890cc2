import type { OutputComparison } from './output-comparison.js';

/**
 * The result of comparing run B with run A: per output, the differences, intervals, tests and a
 * verdict; `rule` states how the verdicts were reached.
 *
 * @example
 * if (comparison.outputs.some((o) => o.verdict === 'regressed')) process.exitCode = 1;
 */
export interface RunComparison {
  /** Each run; `diagnostics`: its trials' input diagnostics, when it is a bundle with `diagnostics.jsonl`. */
  a: { source: string; runId: string | null; diagnostics?: number };
  b: { source: string; runId: string | null; diagnostics?: number };
  alpha: number;
  confidence: number;
  seed: number;
  rule: string;
  outputs: OutputComparison[];
  /** Outputs present in one run only (not compared). */
  outputsOnlyInA: string[];
  outputsOnlyInB: string[];
  /** Outputs both runs declare but one of them has no value of (not compared). */
  outputsWithoutValues: string[];
}
