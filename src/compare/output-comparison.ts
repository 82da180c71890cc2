import type { McNemarResult, SignTestResult } from '../stats/binomial-tests.js';
import type { PairedPermutationResult } from '../stats/paired-permutation-test.js';
import type { StatsInterval } from '../stats/stats-interval.js';

/** A pair that flipped between the runs: its task and the trial of each side. */
export interface Flip {
  task: string;
  trialA: string;
  trialB: string;
}

export type Verdict = 'improved' | 'regressed' | 'inconclusive';

/**
 * How one output compares between run A and run B (all differences are B − A).
 *
 * @example
 * comparison.outputs.filter((o: OutputComparison) => o.verdict === 'regressed').map((o) => o.name);
 */
export interface OutputComparison {
  name: string;
  /** Every value of both runs is 0/1 (or a boolean). */
  binary: boolean;
  higherIsBetter: boolean;
  meanA: number | null;
  meanB: number | null;
  /** Values (trials) of each run. */
  nA: number;
  nB: number;
  /** Tasks with values in both runs. */
  tasks: number;
  /** Pairs compared: trial r of a task in A with trial r in B where both have several trials, else task means. */
  pairs: number;
  /** Tasks with values in one run only. */
  onlyInA: string[];
  onlyInB: string[];
  /** Mean paired difference (each pair weighs the same). */
  difference: number | null;
  /** Clustered-by-task interval of the difference (null with fewer than 2 tasks). */
  clustered: StatsInterval | null;
  /** Seeded cluster-bootstrap interval of the difference. */
  bootstrap: StatsInterval | null;
  /** Exact McNemar over the paired trials (binary outputs only). */
  mcnemar: McNemarResult | null;
  /** Sign test on the per-task differences. */
  sign: SignTestResult;
  /** Paired permutation test on the per-task differences. */
  permutation: PairedPermutationResult;
  /** The p-value the verdict uses: McNemar's for binary outputs, else the permutation test's. */
  test: 'mcnemar_exact' | 'permutation';
  pValue: number;
  /** `pValue` adjusted across the outputs compared. */
  holm: number;
  benjaminiHochberg: number;
  /** Smallest difference detectable at 80 % power and α (from the clustered standard error). */
  minimumDetectableEffect: number | null;
  /** Pairs whose binary value flipped, naming their tasks (binary outputs only). */
  flips: { passToFail: Flip[]; failToPass: Flip[] } | null;
  verdict: Verdict;
}

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
