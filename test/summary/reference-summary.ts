/**
 * A deliberately naive, non-streaming transliteration of spec §7 for property tests: it sorts the
 * scores into SDK order, projects them into observations (like the SDK's `output_observations.py`)
 * and answers every part of the summary by filtering lists. Shares only the pure statistics
 * (`aggregateRangeScore`, `passAtK`, `reduceViewSignals`), which are tested against CPython.
 */
import { passAtK } from '../../src/metrics/stats/pass-at-k.js';
import { reduceViewSignals } from '../../src/metrics/stats/reduce-view-signals.js';
import { kindOfValueSchema } from '../../src/model/output-spec.js';
import type { MetricOutput, ScoreRecord } from '../../src/model/score-record.js';
import type { AggregateScore, CoverageCounts, Summary, TaskValueRecord } from '../../src/model/summary.js';
import type { TaskSpec } from '../../src/model/task.js';
import type { Trial } from '../../src/model/trial.js';
import { aggregateRangeScore } from '../../src/summary/aggregate-range-score.js';
import { compareCodePoints } from '../../src/pycompat/compare-code-points.js';
import { isTrialFailure } from '../../src/summary/is-trial-failure.js';

type State = 'observed' | 'missing' | 'trial_failed' | 'metric_failed';
interface Observation {
  score: ScoreRecord;
  name: string;
  state: State;
  output: MetricOutput | null;
}

const tupleCompare = (a: [string, string], b: [string, string]) =>
  compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]);

export function referenceSummary(
  input: ScoreRecord[],
  tasks: TaskSpec[] | null,
  trials: Pick<Trial, 'id' | 'error'>[] = [],
  extras: AggregateScore[] = [],
): Summary {
  const specById = new Map<string, TaskSpec>();
  for (const t of tasks ?? []) specById.set(t.id, t);
  const taskOrder: string[] = [];
  if (tasks !== null) {
    for (const t of tasks) if (!taskOrder.includes(t.id)) taskOrder.push(t.id);
  } else {
    for (const s of input) if (!taskOrder.includes(s.task_id)) taskOrder.push(s.task_id);
  }
  const rank = (id: string) => {
    const r = taskOrder.indexOf(id);
    return r < 0 ? taskOrder.length : r;
  };
  const scores = input
    .map((s, i) => [s, i] as const)
    .sort((a, b) => rank(a[0].task_id) - rank(b[0].task_id) || a[1] - b[1])
    .map(([s]) => s);

  const declared = (taskId: string, type: string) =>
    specById
      .get(taskId)
      ?.metrics.filter((m) => m.type === type)
      .flatMap((m) => m.outputs) ?? [];
  const emittedNames = new Map<string, Set<string>>();
  for (const s of scores)
    for (const o of s.outputs) {
      if (!emittedNames.has(s.metric_type)) emittedNames.set(s.metric_type, new Set());
      emittedNames.get(s.metric_type)?.add(o.name);
    }

  const observations: Observation[] = [];
  for (const s of scores) {
    const names =
      tasks === null
        ? [...(emittedNames.get(s.metric_type) ?? [])]
        : [...new Set(declared(s.task_id, s.metric_type).map((o) => o.name))];
    for (const name of names) {
      const output = s.outputs.find((o) => o.name === name) ?? null;
      const state: State = isTrialFailure(s)
        ? 'trial_failed'
        : s.status === 'failed'
          ? 'metric_failed'
          : output === null
            ? 'missing'
            : 'observed';
      observations.push({ score: s, name, state, output: state === 'observed' ? output : null });
    }
  }

  // Output aggregates and coverage.
  const namesByType = new Map<string, Set<string>>();
  if (tasks === null) {
    for (const [type, names] of emittedNames) namesByType.set(type, names);
  } else {
    for (const t of specById.values())
      for (const m of t.metrics)
        for (const o of m.outputs) {
          if (!namesByType.has(m.type)) namesByType.set(m.type, new Set());
          namesByType.get(m.type)?.add(o.name);
        }
  }
  const aggregates: AggregateScore[] = [];
  const coverage: Record<string, Record<string, CoverageCounts>> = {};
  for (const type of [...namesByType.keys()].sort(compareCodePoints)) {
    coverage[type] = {};
    for (const name of [...(namesByType.get(type) ?? [])].sort(compareCodePoints)) {
      const rows = observations.filter((o) => o.score.metric_type === type && o.name === name);
      const values = rows
        .filter((o) => o.state === 'observed' && typeof o.output?.value === 'number')
        .map((o) => o.output?.value as number);
      aggregates.push(aggregateRangeScore(`${type}.${name}`, values, rows.length));
      const total = rows.length;
      const failed = rows.filter((o) => o.state === 'trial_failed' || o.state === 'metric_failed').length;
      const scored = rows.filter((o) => o.state === 'observed').length;
      coverage[type][name] = { total, scored, failed, missing: Math.max(total - scored - failed, 0) };
    }
  }

  // Views.
  const viewValues = new Map<string, number[]>();
  const viewTotals = new Map<string, number>();
  for (const t of specById.values())
    for (const v of Object.keys(t.views)) {
      viewValues.set(v, []);
      viewTotals.set(v, 0);
    }
  for (const taskId of taskOrder) {
    const spec = specById.get(taskId);
    if (spec === undefined || Object.keys(spec.views).length === 0) continue;
    const taskScores = scores.filter((s) => s.task_id === taskId);
    const trialIds = [...new Set(taskScores.map((s) => s.trial_id))];
    for (const trial of trialIds) {
      for (const [viewName, v] of Object.entries(spec.views)) {
        const of = (type: string) => taskScores.filter((s) => s.trial_id === trial && s.metric_type === type);
        const occ = Math.max(1, ...v.signals.map((sig) => of(sig.metric).length));
        for (let i = 0; i < occ; i++) {
          const signalValues = v.signals.map((sig) => {
            const s = of(sig.metric)[i];
            if (s === undefined) return NaN;
            const obs = observations.find((o) => o.score === s && o.name === sig.output);
            if (obs === undefined || obs.state !== 'observed') return NaN;
            const value = obs.output?.value;
            if (typeof value === 'number') return value;
            if (typeof value === 'boolean') return value ? 1 : 0;
            return NaN;
          });
          viewTotals.set(viewName, (viewTotals.get(viewName) ?? 0) + 1);
          const r = reduceViewSignals(
            v.reducer,
            signalValues,
            v.signals.map((sig) => sig.weight),
          );
          if (r !== null) viewValues.get(viewName)?.push(r);
        }
      }
    }
  }
  for (const name of [...viewValues.keys()].sort(compareCodePoints)) {
    aggregates.push(
      aggregateRangeScore(`view.${name}`, viewValues.get(name) ?? [], viewTotals.get(name) ?? 0),
    );
  }

  // Task values.
  const keyKinds = ['continuous', 'discrete', 'boolean', 'label'];
  const tmv: Record<string, Record<string, TaskValueRecord[]>> = {};
  const entryTasks = tasks === null ? taskOrder : [...specById.keys()];
  for (const taskId of entryTasks) {
    let keys: [string, string][];
    if (tasks !== null) {
      keys = (specById.get(taskId)?.metrics ?? []).flatMap((m) =>
        m.outputs
          .filter((o) => keyKinds.includes(kindOfValueSchema(o.value_schema)))
          .map((o) => [m.type, o.name] as [string, string]),
      );
    } else {
      keys = observations
        .filter((o) => o.score.task_id === taskId && o.state === 'observed')
        .filter(
          (o) => ['number', 'boolean', 'string'].includes(typeof o.output?.value) && o.output?.value !== null,
        )
        .map((o) => [o.score.metric_type, o.name] as [string, string]);
    }
    const unique = [...new Map(keys.map((k) => [`${k[0]}\u0000${k[1]}`, k])).values()].sort(tupleCompare);
    const entry: Record<string, TaskValueRecord[]> = {};
    for (const [type, name] of unique) {
      const records: TaskValueRecord[] = [];
      for (const o of observations) {
        if (o.score.task_id !== taskId || o.score.metric_type !== type || o.name !== name) continue;
        const trial_id = o.score.trial_id;
        if (o.state === 'trial_failed') records.push({ trial_id, value_type: 'missing', value: null });
        if (o.state !== 'observed') continue;
        const value = o.output?.value;
        if (typeof value === 'number' || typeof value === 'boolean')
          records.push({ trial_id, value_type: 'number', value });
        else if (typeof value === 'string') records.push({ trial_id, value_type: 'label', value });
      }
      entry[`${type}.${name}`] = records;
    }
    tmv[taskId] = entry;
  }

  // pass@k.
  const pairs = new Map<string, [string, string]>();
  for (const t of specById.values())
    for (const m of t.metrics)
      for (const o of m.outputs)
        if (['continuous', 'boolean'].includes(kindOfValueSchema(o.value_schema)))
          pairs.set(`${m.type}\u0000${o.name}`, [m.type, o.name]);
  for (const [type, name] of [...pairs.values()].sort(tupleCompare)) {
    const key = `${type}.${name}`;
    const declaring = Object.keys(tmv)
      .sort((a, b) => rank(a) - rank(b))
      .filter((t) => key in (tmv[t] ?? {}));
    const perTask = declaring.map((t) => {
      const numeric = (tmv[t]?.[key] ?? []).flatMap((r) =>
        r.value === null ? [null] : typeof r.value === 'string' ? [] : [Number(r.value)],
      );
      return {
        n: numeric.length,
        c: numeric.filter((v) => v !== null && v >= 1.0).length,
        opportunities: scores.filter((s) => s.task_id === t && s.metric_type === type).length,
      };
    });
    const maxK = Math.max(0, ...perTask.map((p) => p.opportunities));
    for (let k = 1; k <= maxK; k++) {
      const estimates = perTask.filter((p) => p.n > 0 && p.n >= k).map((p) => passAtK(p.n, p.c, k));
      aggregates.push(aggregateRangeScore(`${key}.pass@${k}`, estimates, declaring.length));
    }
  }
  aggregates.push(...extras);

  const errors: Record<string, string[]> = {};
  for (const t of trials) if (t.error) (errors[t.error.type] ??= []).push(t.id);
  return {
    scores: { scores: aggregates },
    metric_coverage: coverage,
    task_metric_values: tmv,
    task_count: tasks === null ? taskOrder.length : tasks.length,
    trial_count: new Set(input.map((s) => s.trial_id)).size,
    score_count: input.length,
    error_trial_ids: errors,
    error_count: Object.values(errors).reduce((n, l) => n + l.length, 0),
  };
}
