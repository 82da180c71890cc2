/*
 * The SDK's accessors of a summary: one aggregate by name, the headline value, scores by name, a
 * task's outcomes, and the values of task value records.
 */
import { matchingBlocks } from '../evidence/matching-blocks.js';
import type { AggregateScore, Summary, TaskValueRecord } from '../model/summary.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';
import { pyRepr } from '../pycompat/py-repr.js';

const LISTED = 10;

/**
 * The first aggregate named `name` (the SDK's `summary.score(name)`; first-wins on duplicates).
 * Throws `AggregateNotFoundError` when there is none, whose message suggests close names
 * ("did you mean", with how many other aggregates exist), or else lists up to 10 names then
 * "(N more)", or says the result has no aggregates at all.
 *
 * @example
 * summaryScore(summary, 'harbor_reward.reward').mean; // 0.5
 * summaryScore(summary, 'harbor_reward.rewrad'); // throws: no aggregate named 'harbor_reward.rewrad'; did you mean 'harbor_reward.reward'? ...
 */
export function summaryScore(summary: Pick<Summary, 'scores'>, name: string): AggregateScore {
  const rows = summary.scores.scores;
  for (const row of rows) if (row.name === name) return row;
  const names = [...new Set(rows.map((r) => r.name))];
  const asked = `no aggregate named ${pyRepr(name)}`;
  if (names.length === 0) {
    throw new AggregateNotFoundError(`${asked}: this result has no aggregates at all`, name, []);
  }
  const suggestions = closeMatches(name, names);
  if (suggestions.length > 0) {
    const others = names.length - suggestions.length;
    const tally = others === 0 ? '' : ` (${others} other aggregate${others === 1 ? '' : 's'} in this result)`;
    const offered = suggestions.map((name) => pyRepr(name)).join(', ');
    throw new AggregateNotFoundError(`${asked}; did you mean ${offered}?${tally}`, name, suggestions);
  }
  const listed = names
    .slice(0, LISTED)
    .map((name) => pyRepr(name))
    .join(', ');
  const more = names.length > LISTED ? ` (${names.length - LISTED} more)` : '';
  throw new AggregateNotFoundError(`${asked}; available aggregates: ${listed}${more}`, name, []);
}

/**
 * Thrown by `summaryScore` for a name no aggregate has: the SDK's `KeyError` from
 * `AgentEvalSummary.score(name)`, with the same message text (`name` is `'KeyError'`).
 *
 * @example
 * try { summaryScore(summary, 'x'); } catch (e) { if (e instanceof AggregateNotFoundError) console.log(e.suggestions); }
 */
export class AggregateNotFoundError extends Error {
  override readonly name = 'KeyError';
  readonly code = 'aggregate_not_found';

  constructor(
    message: string,
    /** The name that was asked for. */
    readonly requested: string,
    /** Close names offered ("did you mean"), best first; empty when none were close. */
    readonly suggestions: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Python's `difflib.get_close_matches(word, possibilities, n, cutoff)`: the best `n` possibilities
 * whose `SequenceMatcher(None, possibility, word).ratio()` is at least `cutoff`, best first (ties by
 * the possibility itself, descending, as `heapq.nlargest` orders `(score, x)` pairs). Strings are
 * compared by code point; the `autojunk` popularity rule applies to words of 200+ code points.
 *
 * @example
 * closeMatches('gym_reward.rewrad', ['gym_reward.reward', 'view.solved']); // ['gym_reward.reward']
 */
export function closeMatches(word: string, possibilities: readonly string[], n = 3, cutoff = 0.6): string[] {
  const b = Array.from(word);
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    const a = Array.from(x);
    const length = a.length + b.length;
    let matches = 0;
    if (length > 0) for (const [, , size] of matchingBlocks(a, b)) matches += size;
    const ratio = length === 0 ? 1.0 : (2.0 * matches) / length;
    if (ratio >= cutoff) scored.push([ratio, x]);
  }
  scored.sort((p, q) => (p[0] !== q[0] ? q[0] - p[0] : -compareCodePoints(p[1], q[1])));
  return scored.slice(0, Math.max(n, 0)).map((p) => p[1]);
}

/**
 * Aggregates keyed by name, first-wins on a repeated name (runner extras are appended as-is).
 *
 * @example
 * scoresByName(summary).get('harbor_reward.reward')?.mean; // 0.5
 */
export function scoresByName(summary: Pick<Summary, 'scores'>): Map<string, AggregateScore> {
  const byName = new Map<string, AggregateScore>();
  for (const row of summary.scores.scores) if (!byName.has(row.name)) byName.set(row.name, row);
  return byName;
}

/**
 * The one number to show for an aggregate: `value` for a scalar (backend-reported) score, else `mean`.
 *
 * @example
 * headlineValue({ ...scalar, value: 0.8, mean: null }); // 0.8
 */
export function headlineValue(aggregate: AggregateScore): number | null {
  return aggregate.score_type === 'scalar' ? aggregate.value : aggregate.mean;
}

/** Every trial's value at one task under one `<type>.<output>`. */
export interface PerTaskOutcome {
  metric_name: string;
  trials: TaskValueRecord[];
}

/** One task's values across every metric output that measured it. */
export interface PerTaskOutcomes {
  task_id: string;
  outcomes: PerTaskOutcome[];
}

/**
 * `summary.task_metric_values` as a list sorted by task id then metric name (code-point order). With
 * `metricName`, only that key is kept and tasks lacking the key are dropped (tasks with the key and an
 * empty list stay).
 *
 * @example
 * taskOutcomes(summary, 'harbor_reward.reward'); // [{ task_id: 'A', outcomes: [{ metric_name: 'harbor_reward.reward', trials: [...] }] }]
 */
export function taskOutcomes(
  summary: Pick<Summary, 'task_metric_values'>,
  metricName?: string,
): PerTaskOutcomes[] {
  const result: PerTaskOutcomes[] = [];
  const taskIds = Object.keys(summary.task_metric_values).sort(compareCodePoints);
  for (const taskId of taskIds) {
    const byKey = summary.task_metric_values[taskId] ?? {};
    const keys = Object.keys(byKey).sort(compareCodePoints);
    const outcomes: PerTaskOutcome[] = [];
    for (const key of keys) {
      if (metricName !== undefined && key !== metricName) continue;
      outcomes.push({ metric_name: key, trials: [...(byKey[key] ?? [])] });
    }
    if (metricName === undefined || outcomes.length > 0) result.push({ task_id: taskId, outcomes });
  }
  return result;
}

/**
 * The bare values of task value records, in order, keeping type, cardinality and nulls.
 *
 * @example
 * metricValues([{ trial_id: 'a', value_type: 'label', value: 'ok' }]); // ['ok']
 */
export function metricValues(records: readonly TaskValueRecord[]): (number | boolean | string | null)[] {
  return records.map((r) => r.value);
}

/**
 * The values that can be compared and averaged: numbers as floats, booleans as 1.0/0.0, a dead
 * trial's null kept, labels **dropped** (an unmeasured trial, not a failed one).
 *
 * @example
 * numericMetricValues(records); // e.g. [1, null, 0] for (1.0, dead trial, "bad", false)
 */
export function numericMetricValues(records: readonly TaskValueRecord[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (const r of records) {
    const v = r.value;
    if (v === null) out.push(null);
    else if (typeof v === 'boolean') out.push(v ? 1.0 : 0.0);
    else if (typeof v === 'number') out.push(v);
  }
  return out;
}
