import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/compare-runs.js';
import { renderComparisonHtml } from '../../src/compare/render-comparison-html.js';
import type { RunValues } from '../../src/compare/read-run-values.js';

/** A run with one output; `tasks[task]` = values in trial order, trial ids `<task>/<r>`. */
function run(source: string, outputs: Record<string, Record<string, number[]>>): RunValues {
  const map = new Map(
    Object.entries(outputs).map(([name, tasks]) => [
      name,
      new Map(
        Object.entries(tasks).map(([task, values]) => [
          task,
          values.map((value, r) => ({ trialId: `${task}/${r}`, value })),
        ]),
      ),
    ]),
  );
  const binary = new Set(
    Object.entries(outputs)
      .filter(([, tasks]) => Object.values(tasks).every((vs) => vs.every((v) => v === 0 || v === 1)))
      .map(([name]) => name),
  );
  return { source, runId: null, outputs: map, binary };
}

describe('compareRuns', () => {
  it('pairs trials by repeat, counts flips by task and runs McNemar on them (hand calculation)', () => {
    const a = run('A', { 'm.pass': { t1: [1, 1], t2: [0, 0], t3: [1, 0], t4: [0] } });
    const b = run('B', { 'm.pass': { t1: [1, 0], t2: [1, 1], t3: [1, 1], t5: [1] } });
    const c = compareRuns(a, b).outputs[0];
    // pairs: t1 (1→1, 1→0), t2 (0→1, 0→1), t3 (1→1, 0→1); t4 only in A, t5 only in B
    expect(c).toMatchObject({
      name: 'm.pass',
      binary: true,
      tasks: 3,
      pairs: 6,
      onlyInA: ['t4'],
      onlyInB: ['t5'],
    });
    expect(c?.difference).toBeCloseTo((-1 + 1 + 1 + 1) / 6, 15);
    expect(c?.flips?.passToFail).toEqual([{ task: 't1', trialA: 't1/1', trialB: 't1/1' }]);
    expect(c?.flips?.failToPass.map((f) => f.task)).toEqual(['t2', 't2', 't3']);
    // McNemar b = 1, c = 3: 2·(1 + 4)/16 = 0.625
    expect(c?.mcnemar).toEqual({ passToFail: 1, failToPass: 3, pValue: 0.625 });
    expect(c?.test).toBe('mcnemar_exact');
    // per-task differences −0.5, 1, 0.5 → sign test 2 up, 1 down: p = 1
    expect(c?.sign).toMatchObject({ positive: 2, negative: 1, pValue: 1 });
    expect(c?.meanA).toBeCloseTo(3 / 7, 15);
    expect(c?.verdict).toBe('inconclusive');
  });

  it('pairs task means when a side has one trial, and flips the verdict for lower-is-better outputs', () => {
    const tasks = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, [100 + i, 102 + i]]));
    const fewer = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, [70 + i]]));
    const c = compareRuns(run('A', { 'u.tokens': tasks }), run('B', { 'u.tokens': fewer }), {
      lowerIsBetter: ['u.tokens'],
    }).outputs[0];
    expect(c).toMatchObject({ binary: false, tasks: 12, pairs: 12, test: 'permutation', mcnemar: null });
    expect(c?.difference).toBeCloseTo(-31, 12);
    // every task went down: the exact sign test gives 2/2^12
    expect(c?.sign.pValue).toBeCloseTo(2 / 4096, 15);
    expect(c?.verdict).toBe('improved');
    const higher = compareRuns(run('A', { 'u.tokens': tasks }), run('B', { 'u.tokens': fewer })).outputs[0];
    expect(higher?.verdict).toBe('regressed');
  });

  it('takes fewer tokens, lower cost and fewer tool errors as better for built-in outputs unless told otherwise', () => {
    const tasks = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, [100 + i, 102 + i]]));
    const fewer = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}`, [70 + i]]));
    const names = [
      'token_usage.total_tokens',
      'token_usage.cost_usd',
      'usage.runtime_sec',
      'trajectory_stats.tool_errors',
      'tool_call_efficiency.max_repeated_tool_calls',
      // the better direction of steps depends on the task: higher, as for any output
      'trajectory_stats.steps',
    ];
    const a = run('A', Object.fromEntries(names.map((n) => [n, tasks])));
    const b = run('B', Object.fromEntries(names.map((n) => [n, fewer])));
    const byName = (c: ReturnType<typeof compareRuns>) => new Map(c.outputs.map((o) => [o.name, o]));
    const defaults = byName(compareRuns(a, b));
    for (const name of names.slice(0, 5)) {
      expect(defaults.get(name)).toMatchObject({ higherIsBetter: false, verdict: 'improved' });
    }
    expect(defaults.get('trajectory_stats.steps')).toMatchObject({
      higherIsBetter: true,
      verdict: 'regressed',
    });
    const told = byName(
      compareRuns(a, b, {
        higherIsBetter: ['token_usage.cost_usd'],
        lowerIsBetter: ['trajectory_stats.steps'],
      }),
    );
    expect(told.get('token_usage.cost_usd')).toMatchObject({ higherIsBetter: true, verdict: 'regressed' });
    expect(told.get('trajectory_stats.steps')).toMatchObject({ higherIsBetter: false, verdict: 'improved' });
    expect(told.get('token_usage.total_tokens')?.higherIsBetter).toBe(false);
  });

  it('adjusts across outputs with Holm and Benjamini–Hochberg and is reproducible for a seed', () => {
    const base = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`t${i}`, [i % 2, (i + 1) % 2, 0]]));
    const better = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`t${i}`, [1, 1, i % 3 === 0 ? 1 : 0]]),
    );
    const a = run('A', { 'x.a': base, 'x.b': base });
    const b = run('B', { 'x.a': better, 'x.b': base });
    const c = compareRuns(a, b, { seed: 3 });
    const [first, second] = c.outputs;
    expect(first?.holm).toBeCloseTo(Math.min(1, 2 * Math.min(first?.pValue ?? 1, second?.pValue ?? 1)), 15);
    expect(second?.pValue).toBe(1);
    expect(second?.holm).toBe(1);
    expect(first?.benjaminiHochberg).toBeCloseTo(Math.min(1, 2 * (first?.pValue ?? 1)), 15);
    expect(first?.verdict).toBe('improved');
    expect(first?.minimumDetectableEffect).toBeCloseTo(2.801585218 * (first?.clustered?.se ?? NaN), 8);
    expect(compareRuns(a, b, { seed: 3 })).toEqual(c);
  });

  it('renders a static page with every value escaped', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const a = run(`runs/${evil}`, { [`m.${evil}`]: { [evil]: [1, 0], t2: [1, 1] } });
    const b = run('runs/b', { [`m.${evil}`]: { [evil]: [0, 0], t2: [1, 1] } });
    const html = renderComparisonHtml(compareRuns(a, b));
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain("default-src 'none'");
  });
});
