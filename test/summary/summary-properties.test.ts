import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutputKind } from '../../src/model/output-spec.js';
import type { JsonValue } from '../../src/model/json-value.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { SemanticReducer, TaskSpec } from '../../src/model/task.js';
import type { Trial } from '../../src/model/trial.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { SummaryBuilder } from '../../src/summary/summary-builder.js';
import { deadTrial, metric, metricFailed, score, task, view } from './fixtures.js';
import { referenceSummary } from './reference-summary.js';

const METRICS = ['m1', 'm2', 'm3'];
const OUTPUTS = ['a', 'b', 'c'];
const KINDS: OutputKind[] = ['continuous', 'discrete', 'boolean', 'label', 'model'];
const REDUCERS: SemanticReducer[] = ['single', 'all', 'any', 'mean', 'weighted_mean'];

const valueArb: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<JsonValue>(0, 0.25, 0.5, 1, 0.1, 2, 3) },
  { weight: 3, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(NaN, Infinity, -Infinity, -0) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constantFrom<JsonValue>('good', 'bad', 'NaN') },
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(null, { deep: 1 }, [1]) },
);

const taskSpecArb = (id: string): fc.Arbitrary<TaskSpec> =>
  fc
    .uniqueArray(
      fc.record({
        type: fc.constantFrom(...METRICS),
        outputs: fc.uniqueArray(
          fc.record({
            name: fc.constantFrom(...OUTPUTS),
            kind: fc.constantFrom(...KINDS),
            required: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3, selector: (o) => o.name },
        ),
      }),
      { minLength: 0, maxLength: 3, selector: (m) => m.type },
    )
    .chain((metrics) => {
      const descriptors = metrics.map((m) =>
        metric(m.type, Object.fromEntries(m.outputs.map((o) => [o.name, [o.kind, o.required]]))),
      );
      const signals = metrics.flatMap((m) => m.outputs.map((o) => [m.type, o.name] as const));
      const viewArb =
        signals.length === 0
          ? fc.constant({})
          : fc.dictionary(
              fc.constantFrom('v1', 'v2'),
              fc
                .tuple(
                  fc.constantFrom(...REDUCERS),
                  fc.array(
                    fc.tuple(
                      fc.constantFrom(...signals),
                      fc.constantFrom<number | null>(null, 1, 2, 0, -1, 0.5),
                    ),
                    { minLength: 1, maxLength: 3 },
                  ),
                )
                .map(([reducer, sigs]) =>
                  view(reducer, ...sigs.map(([[m, o], w]) => [m, o, w] as [string, string, number | null])),
                ),
              { maxKeys: 2 },
            );
      return viewArb.map((views) => task(id, descriptors, views));
    });

/** Per-task score sequences (each in its own order) for tasks T0..T2 plus an unlisted task TX. */
const scoresArb: fc.Arbitrary<ScoreRecord[][]> = fc
  .array(
    fc.array(
      fc.record({
        trial: fc.constantFrom('t1', 't2', 't3', 't4'),
        metric: fc.constantFrom(...METRICS),
        kind: fc.constantFrom('completed', 'completed', 'completed', 'partial', 'dead', 'raised'),
        outputs: fc.array(fc.tuple(fc.constantFrom(...OUTPUTS, 'zz'), valueArb), { maxLength: 4 }),
      }),
      { maxLength: 12, size: 'max' },
    ),
    { minLength: 4, maxLength: 4 },
  )
  .map((perTask) =>
    perTask.map((list, t) =>
      list.map(({ trial, metric: m, kind, outputs }) => {
        const taskId = t === 3 ? 'TX' : `T${t}`;
        if (kind === 'dead') return deadTrial(taskId, trial, m);
        if (kind === 'raised') return metricFailed(taskId, trial, m);
        return score(taskId, trial, m, outputs, kind === 'partial' ? 'partial' : 'completed');
      }),
    ),
  );

/** Interleave per-task sequences, keeping each task's own order, as driven by `choices`. */
function interleave(perTask: ScoreRecord[][], choices: number[]): ScoreRecord[] {
  const queues = perTask.map((l) => [...l]);
  const out: ScoreRecord[] = [];
  let c = 0;
  for (;;) {
    const open = queues.filter((q) => q.length > 0);
    if (open.length === 0) return out;
    const q = open[(choices[c++ % Math.max(choices.length, 1)] ?? 0) % open.length] as ScoreRecord[];
    out.push(q.shift() as ScoreRecord);
  }
}

const tasksArb = fc.tuple(taskSpecArb('T0'), taskSpecArb('T1'), taskSpecArb('T2'));
const choicesArb = fc.array(fc.nat(), { minLength: 1, maxLength: 40, size: 'max' });
const trialsArb = fc.array(
  fc.record({
    id: fc.constantFrom('t1', 't2', 't3'),
    error: fc.option(
      fc
        .constantFrom('Timeout', 'OOM')
        .map((type) => ({ type, message: null, traceback: null, occurred_at: null })),
    ),
  }),
  { maxLength: 5 },
) as fc.Arbitrary<Pick<Trial, 'id' | 'error'>[]>;

function checkInvariants(summary: ReturnType<typeof buildSummary>): void {
  for (const [type, byName] of Object.entries(summary.metric_coverage)) {
    for (const [name, c] of Object.entries(byName)) {
      expect(c.scored + c.missing + c.failed).toBe(c.total);
      const row = summary.scores.scores.find((s) => s.name === `${type}.${name}`);
      expect((row?.count ?? 0) + (row?.nan_count ?? 0)).toBe(c.total);
    }
  }
  for (const row of summary.scores.scores) expect(row.count).not.toBeNull();
}

describe('summary properties', () => {
  it('with task specs: equals the naive reference, holds the invariants, for any interleaving', () => {
    fc.assert(
      fc.property(
        tasksArb,
        scoresArb,
        choicesArb,
        choicesArb,
        trialsArb,
        (tasks, perTask, c1, c2, trials) => {
          const taskList = [...tasks];
          const first = interleave(perTask, c1);
          const summary = buildSummary({ scores: first, tasks: taskList, trials });
          expect(summary).toEqual(referenceSummary(first, taskList, trials));
          checkInvariants(summary);
          // Another interleaving of the same per-task sequences gives identical floats.
          expect(buildSummary({ scores: interleave(perTask, c2), tasks: taskList, trials })).toEqual(summary);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('snapshot(): a live builder that learns its task specs as it goes equals buildSummary of what it was given, at every point, and old snapshots stay as they were', () => {
    fc.assert(
      fc.property(
        tasksArb,
        scoresArb,
        choicesArb,
        trialsArb,
        fc.array(fc.nat(), { maxLength: 6 }),
        (tasks, perTask, choices, trials, cuts) => {
          const scores = interleave(perTask, choices);
          const specs = new Map(tasks.map((t) => [t.id, t]));
          const builder = new SummaryBuilder([]);
          const declared: TaskSpec[] = [];
          const points = new Set(cuts.map((c) => c % (scores.length + 1)));
          const taken: { summary: ReturnType<typeof buildSummary>; at: number; tasks: TaskSpec[] }[] = [];
          const expected = (at: number, taskList: TaskSpec[]) =>
            buildSummary({
              scores: scores.slice(0, at),
              tasks: taskList,
              trials: trials.slice(0, Math.min(at, trials.length)),
            });
          for (let i = 0; i <= scores.length; i++) {
            if (points.has(i)) {
              expect(builder.snapshot([], { taskValues: false })).toEqual({
                ...expected(i, [...declared]),
                task_metric_values: {},
              });
              const summary = builder.snapshot();
              expect(summary).toEqual(expected(i, [...declared]));
              taken.push({ summary, at: i, tasks: [...declared] });
            }
            const next = scores[i];
            if (next === undefined) break;
            const spec = specs.get(next.task_id);
            if (spec !== undefined && !declared.includes(spec)) {
              declared.push(spec);
              builder.addTaskSpec(spec);
            }
            builder.addScore(next);
            const trial = trials[i];
            if (trial !== undefined) builder.addTrial(trial);
          }
          // read only now: their lazy task values and error lists must not have grown meanwhile
          for (const { summary, at, tasks: taskList } of taken)
            expect(summary).toEqual(expected(at, taskList));
          expect(builder.finish()).toEqual(expected(scores.length, declared));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('without task specs: equals the naive reference and holds the invariants', () => {
    fc.assert(
      fc.property(scoresArb, choicesArb, (perTask, choices) => {
        const scores = interleave(perTask, choices);
        const summary = buildSummary({ scores });
        expect(summary).toEqual(referenceSummary(scores, null));
        checkInvariants(summary);
      }),
      { numRuns: 150 },
    );
  });

  it('without task specs: interleavings that keep the first-seen task order give identical floats', () => {
    fc.assert(
      fc.property(scoresArb, choicesArb, (perTask, choices) => {
        const grouped = perTask.flat();
        // Keep each task's first score in place (grouped order), interleave the rest after them.
        const heads = perTask.filter((l) => l.length > 0).map((l) => l[0] as ScoreRecord);
        const tails = interleave(
          perTask.map((l) => l.slice(1)),
          choices,
        );
        expect(buildSummary({ scores: [...heads, ...tails] })).toEqual(buildSummary({ scores: grouped }));
      }),
      { numRuns: 100 },
    );
  });
});
