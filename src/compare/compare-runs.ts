import { benjaminiHochbergAdjust, holmAdjust } from '../stats/p-value-adjustments.js';
import { clusteredMeanInterval } from '../stats/clustered-mean-interval.js';
import { exactMcNemar, signTest } from '../stats/binomial-tests.js';
import { minimumDetectableEffect } from '../stats/minimum-detectable-effect.js';
import { pairedBootstrapInterval } from '../stats/paired-bootstrap-interval.js';
import { pairedPermutationTest } from '../stats/paired-permutation-test.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';
import { lowerIsBetterByDefault } from './default-directions.js';
import type { Flip, OutputComparison, RunComparison, Verdict } from './output-comparison.js';
import type { RunValues, TrialValue } from './read-run-values.js';

/** Options of {@link compareRuns}. */
export interface CompareRunsOptions {
  /** Outputs to compare (exact names); default: every output both runs have. */
  outputs?: readonly string[];
  /**
   * Outputs where lower is better (e.g. tokens, cost); the verdict is flipped for them. Built-in
   * outputs of tokens, cost, time and errors are lower-is-better without being named
   * ({@link lowerIsBetterByDefault}).
   */
  lowerIsBetter?: readonly string[];
  /** Outputs where higher is better although {@link lowerIsBetterByDefault} says otherwise. */
  higherIsBetter?: readonly string[];
  /** Significance level of the verdict (Holm-adjusted). Default 0.05. */
  alpha?: number;
  /** Seed of the bootstrap and of the permutation test. Default 0. */
  seed?: number;
  /** Bootstrap resamples. Default 2,000. */
  bootstrapResamples?: number;
}

interface Pair {
  task: string;
  a: TrialValue | null;
  b: TrialValue | null;
  d: number;
}

/**
 * Compares run B with run A output by output (pure; seeded, so the same inputs give the same
 * result). Tasks are paired by id; within a task where both runs have several trials, trial r of A is
 * paired with trial r of B (extra trials of the longer side are left out); otherwise the task means
 * are paired. Per output: the means of each run, the mean paired difference B − A with a
 * clustered-by-task interval and a seeded cluster-bootstrap interval, exact McNemar and the flips
 * for binary outputs, a sign test and a paired permutation test on per-task differences, Holm and
 * Benjamini–Hochberg adjustment across the outputs compared, the minimum detectable effect at 80 %
 * power, and a verdict: improved (regressed) when the Holm-adjusted p-value is below α and the
 * clustered interval lies wholly above (below) 0 in the better direction, else inconclusive.
 *
 * @example
 * const result = compareRuns(await readBundleValues('runs/a'), await readBundleValues('runs/b'), { seed: 1 });
 * result.outputs[0]?.verdict; // 'improved' | 'regressed' | 'inconclusive'
 */
export function compareRuns(a: RunValues, b: RunValues, options: CompareRunsOptions = {}): RunComparison {
  const alpha = options.alpha ?? 0.05;
  const seed = options.seed ?? 0;
  const lowerIsBetter = new Set(options.lowerIsBetter ?? []);
  const higherIsBetter = new Set(options.higherIsBetter ?? []);
  const lower = (name: string): boolean =>
    lowerIsBetter.has(name) || (lowerIsBetterByDefault(name) && !higherIsBetter.has(name));
  const shared = [...a.outputs.keys()].filter((name) => b.outputs.has(name)).sort(compareCodePoints);
  const names = options.outputs === undefined ? shared : shared.filter((n) => options.outputs?.includes(n));
  const hasValues = (run: RunValues, name: string): boolean =>
    [...(run.outputs.get(name)?.values() ?? [])].some((values) => values.length > 0);
  const withoutValues = names.filter((name) => !hasValues(a, name) || !hasValues(b, name));
  const partial = names
    .filter((name) => !withoutValues.includes(name))
    .map((name) =>
      compareOutput(name, a, b, {
        alpha,
        seed,
        higherIsBetter: !lower(name),
        bootstrapResamples: options.bootstrapResamples ?? 2_000,
      }),
    );
  const holm = holmAdjust(partial.map((o) => o.pValue));
  const bh = benjaminiHochbergAdjust(partial.map((o) => o.pValue));
  const outputs = partial.map((o, i) => {
    const adjusted = holm[i] as number;
    return {
      ...o,
      holm: adjusted,
      benjaminiHochberg: bh[i] as number,
      verdict: verdictOf(o, adjusted, alpha),
    };
  });
  return {
    a: side(a),
    b: side(b),
    alpha,
    confidence: 1 - alpha,
    seed,
    rule:
      `improved (regressed): the Holm-adjusted p-value (exact McNemar for binary outputs, paired permutation ` +
      `otherwise) is below ${alpha} and the ${Math.round((1 - alpha) * 100)}% clustered interval of B − A lies ` +
      `wholly above (below) 0 in the output's better direction; otherwise inconclusive`,
    outputs,
    outputsOnlyInA: [...a.outputs.keys()].filter((n) => !b.outputs.has(n)).sort(compareCodePoints),
    outputsOnlyInB: [...b.outputs.keys()].filter((n) => !a.outputs.has(n)).sort(compareCodePoints),
    outputsWithoutValues: withoutValues,
  };
}

function side({ source, runId, diagnostics }: RunValues): RunComparison['a'] {
  return { source, runId, ...(diagnostics === undefined ? {} : { diagnostics }) };
}

interface OutputOptions {
  alpha: number;
  seed: number;
  higherIsBetter: boolean;
  bootstrapResamples: number;
}

type PartialComparison = Omit<OutputComparison, 'holm' | 'benjaminiHochberg' | 'verdict'>;

function compareOutput(name: string, a: RunValues, b: RunValues, options: OutputOptions): PartialComparison {
  const tasksA = a.outputs.get(name) as Map<string, TrialValue[]>;
  const tasksB = b.outputs.get(name) as Map<string, TrialValue[]>;
  const binary = a.binary.has(name) && b.binary.has(name);
  const pairs: Pair[][] = [];
  const onlyInA: string[] = [];
  for (const [task, valuesA] of tasksA) {
    if (valuesA.length === 0) continue;
    const valuesB = tasksB.get(task) ?? [];
    if (valuesB.length === 0) {
      onlyInA.push(task);
      continue;
    }
    pairs.push(pairTask(task, valuesA, valuesB));
  }
  const onlyInB = [...tasksB]
    .filter(([task, values]) => values.length > 0 && (tasksA.get(task) ?? []).length === 0)
    .map(([task]) => task);
  const clusters = pairs.map((task) => task.map((p) => p.d));
  const taskDifferences = clusters.map((d) => d.reduce((x, y) => x + y, 0) / d.length);
  const all = clusters.flat();
  const clustered = clusteredMeanInterval(clusters, 1 - options.alpha);
  const bootstrap = pairedBootstrapInterval(clusters, {
    seed: options.seed,
    resamples: options.bootstrapResamples,
    confidence: 1 - options.alpha,
  });
  const permutation = pairedPermutationTest(taskDifferences, {
    seed: options.seed,
    resamples: 10_000, // exact enumeration at or below this many sign assignments
  });
  let flips: OutputComparison['flips'] = null;
  let mcnemar: OutputComparison['mcnemar'] = null;
  if (binary) {
    const passToFail: Flip[] = [];
    const failToPass: Flip[] = [];
    for (const p of pairs.flat()) {
      if (p.a === null || p.b === null) continue;
      const flip = { task: p.task, trialA: p.a.trialId, trialB: p.b.trialId };
      if (p.a.value === 1 && p.b.value === 0) passToFail.push(flip);
      else if (p.a.value === 0 && p.b.value === 1) failToPass.push(flip);
    }
    flips = { passToFail, failToPass };
    mcnemar = exactMcNemar(passToFail.length, failToPass.length);
  }
  const meanOf = (tasks: Map<string, TrialValue[]>): [number | null, number] => {
    let sum = 0;
    let n = 0;
    for (const values of tasks.values()) {
      for (const v of values) {
        sum += v.value;
        n += 1;
      }
    }
    return [n === 0 ? null : sum / n, n];
  };
  const [meanA, nA] = meanOf(tasksA);
  const [meanB, nB] = meanOf(tasksB);
  return {
    name,
    binary,
    higherIsBetter: options.higherIsBetter,
    meanA,
    meanB,
    nA,
    nB,
    tasks: pairs.length,
    pairs: all.length,
    onlyInA,
    onlyInB,
    difference: all.length === 0 ? null : all.reduce((x, y) => x + y, 0) / all.length,
    clustered: clustered === null ? null : { ...clustered, method: 'paired_clustered_t' },
    bootstrap,
    mcnemar,
    sign: signTest(taskDifferences),
    permutation,
    test: mcnemar === null ? 'permutation' : 'mcnemar_exact',
    pValue: mcnemar === null ? permutation.pValue : mcnemar.pValue,
    minimumDetectableEffect:
      clustered === null || clustered.se === null
        ? null
        : minimumDetectableEffect(clustered.se, { alpha: options.alpha }),
    flips,
  };
}

/** Trial r with trial r when both runs have several trials of the task, else the task means (one pair). */
function pairTask(task: string, a: readonly TrialValue[], b: readonly TrialValue[]): Pair[] {
  if (a.length > 1 && b.length > 1) {
    const n = Math.min(a.length, b.length);
    return Array.from({ length: n }, (_, r) => {
      const x = a[r] as TrialValue;
      const y = b[r] as TrialValue;
      return { task, a: x, b: y, d: y.value - x.value };
    });
  }
  const mean = (values: readonly TrialValue[]): number =>
    values.reduce((s, v) => s + v.value, 0) / values.length;
  return [
    {
      task,
      a: a.length === 1 ? (a[0] as TrialValue) : null,
      b: b.length === 1 ? (b[0] as TrialValue) : null,
      d: mean(b) - mean(a),
    },
  ];
}

function verdictOf(o: PartialComparison, holm: number, alpha: number): Verdict {
  if (o.clustered === null || !(holm < alpha)) return 'inconclusive';
  const better = o.higherIsBetter ? o.clustered.low > 0 : o.clustered.high < 0;
  const worse = o.higherIsBetter ? o.clustered.high < 0 : o.clustered.low > 0;
  return better ? 'improved' : worse ? 'regressed' : 'inconclusive';
}
