import type { Flip, OutputComparison, RunComparison } from './output-comparison.js';
import type { StatsInterval } from '../stats/stats-interval.js';
import { countOf } from '../util/count-of.js';

/** At most this many flips or one-sided tasks are named per line; the JSON and HTML forms name all. */
const LISTED = 12;

/**
 * The comparison as text for a terminal: one block per output (means, difference and intervals,
 * tests, adjusted p-values, MDE, flips, one-sided tasks, verdict), then the rule and a one-line tally.
 *
 * @example
 * process.stdout.write(formatComparisonText(compareRuns(a, b)));
 */
export function formatComparisonText(c: RunComparison): string {
  const pct = `${Math.round(c.confidence * 100)}%`;
  const lines = [
    `A: ${c.a.source}${c.a.runId === null ? '' : ` (run ${c.a.runId})`}${diagnosticsNote(c.a.diagnostics)}`,
    `B: ${c.b.source}${c.b.runId === null ? '' : ` (run ${c.b.runId})`}${diagnosticsNote(c.b.diagnostics)}`,
    `differences are B − A; α ${c.alpha}; seed ${c.seed}`,
    '',
  ];
  for (const o of c.outputs) lines.push(...outputLines(o, pct), '');
  if (c.outputs.length === 0) lines.push('no output in common to compare', '');
  if (c.outputsOnlyInA.length > 0) lines.push(`outputs only in A: ${c.outputsOnlyInA.join(', ')}`);
  if (c.outputsOnlyInB.length > 0) lines.push(`outputs only in B: ${c.outputsOnlyInB.join(', ')}`);
  if (c.outputsWithoutValues.length > 0)
    lines.push(`outputs without values in a run (not compared): ${c.outputsWithoutValues.join(', ')}`);
  lines.push(`rule: ${c.rule}`);
  const verdicts = (v: string): number => c.outputs.filter((o) => o.verdict === v).length;
  lines.push(
    `${countOf(c.outputs.length, 'output')} compared: ${verdicts('improved')} improved, ${verdicts('regressed')} regressed, ${verdicts('inconclusive')} inconclusive`,
  );
  return lines.join('\n') + '\n';
}

function diagnosticsNote(n: number | undefined): string {
  return n === undefined || n === 0 ? '' : `; ${countOf(n, 'input diagnostic')} in diagnostics.jsonl`;
}

function outputLines(o: OutputComparison, pct: string): string[] {
  const lines = [
    `${o.name}  [${o.binary ? 'binary' : 'numeric'}, ${o.higherIsBetter ? 'higher' : 'lower'} is better]  verdict: ${o.verdict.toUpperCase()}`,
    `  mean A ${stat(o.meanA)} (${countOf(o.nA, 'value')})   mean B ${stat(o.meanB)} (${countOf(o.nB, 'value')})   ${countOf(o.tasks, 'task')} paired, ${countOf(o.pairs, 'pair')}`,
    `  difference ${stat(o.difference, true)}   clustered ${pct} ${interval(o.clustered)}   bootstrap ${pct} ${interval(o.bootstrap)}`,
  ];
  const tests = [
    o.mcnemar === null
      ? null
      : `exact McNemar p ${pValue(o.mcnemar.pValue)} (pass→fail ${o.mcnemar.passToFail}, fail→pass ${o.mcnemar.failToPass})`,
    `sign p ${pValue(o.sign.pValue)} (+${o.sign.positive} −${o.sign.negative} =${o.sign.ties})`,
    `permutation p ${pValue(o.permutation.pValue)}${o.permutation.exact ? ' (exact)' : ''}`,
  ].filter((t) => t !== null);
  lines.push(`  ${tests.join('   ')}`);
  lines.push(
    `  ${o.test === 'mcnemar_exact' ? 'McNemar' : 'permutation'} p adjusted: Holm ${pValue(o.holm)}, Benjamini–Hochberg ${pValue(o.benjaminiHochberg)}   MDE at 80% power ${stat(o.minimumDetectableEffect)}`,
  );
  if (o.flips !== null) {
    lines.push(`  pass→fail ${o.flips.passToFail.length}: ${flipList(o.flips.passToFail)}`);
    lines.push(`  fail→pass ${o.flips.failToPass.length}: ${flipList(o.flips.failToPass)}`);
  }
  if (o.onlyInA.length > 0) lines.push(`  tasks only in A (${o.onlyInA.length}): ${list(o.onlyInA)}`);
  if (o.onlyInB.length > 0) lines.push(`  tasks only in B (${o.onlyInB.length}): ${list(o.onlyInB)}`);
  return lines;
}

function flipList(flips: readonly Flip[]): string {
  if (flips.length === 0) return '—';
  return list(
    flips.map((f) =>
      f.trialA === f.trialB ? `${f.task} (${f.trialA})` : `${f.task} (${f.trialA} → ${f.trialB})`,
    ),
  );
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).join(', ');
  return items.length > LISTED ? `${shown}, … ${items.length - LISTED} more` : shown;
}

/** Up to 4 decimals, trailing zeros dropped, `—` for null or NaN; `signed` puts `+` before positives. */
function stat(value: number | null, signed = false): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const rounded = Number(value.toFixed(4));
  const text = rounded === 0 && value !== 0 ? value.toPrecision(2) : String(rounded);
  return signed && value > 0 ? `+${text}` : text;
}

/** `[low, high]` with {@link stat}, `—` when there is none. */
function interval(value: StatsInterval | null): string {
  return value === null ? '—' : `[${stat(value.low)}, ${stat(value.high)}]`;
}

/** 3 significant digits, `< 0.0001` below that, `—` for NaN. */
function pValue(p: number): string {
  if (Number.isNaN(p)) return '—';
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(3)));
}

/**
 * How a comparison's figures read, in the terminal text and the HTML page alike: statistics,
 * intervals and p-values.
 *
 * @example
 * comparisonFormat.stat(0.123456); // '0.1235'
 * comparisonFormat.stat(0.25, true); // '+0.25'
 * comparisonFormat.interval({ low: 0.1, high: 0.35 } as StatsInterval); // '[0.1, 0.35]'
 * comparisonFormat.pValue(0.03857421875); // '0.0386'
 */
export const comparisonFormat = { stat, interval, pValue };
