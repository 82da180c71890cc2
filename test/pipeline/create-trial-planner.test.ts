import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { makeTask, makeTrialItem } from '../metrics/make-trial-item.js';

const single = (metric: string, output: string) => ({
  reducer: 'single' as const,
  signals: [{ metric, output, weight: null }],
});

describe('createTrialPlanner', () => {
  it('uses the per-task list, else the default list; row indexes in first-seen task order', () => {
    const config = parseConfig(
      { metrics: { default: ['exact_match'], tasks: { B: ['usage', 'contains'] } } },
      'c',
    );
    const plan = createTrialPlanner({ config });
    const b = plan(makeTrialItem({ id: 'b1', task_id: 'B' }));
    const a = plan(makeTrialItem({ id: 'a1', task_id: 'A' }));
    const b2 = plan(makeTrialItem({ id: 'b2', task_id: 'B' }));
    expect(b.metrics.map((m) => m.type)).toEqual(['usage', 'contains']);
    expect(a.metrics.map((m) => m.type)).toEqual(['exact_match']);
    expect([b.rowIndex, a.rowIndex]).toEqual([0, 1]);
    expect(b2).toBe(b);
    expect(a.task.metrics).toEqual([
      {
        type: 'exact_match',
        outputs: [{ name: 'score', description: expect.any(String), value_schema: 'ContinuousScore' }],
      },
    ]);
  });

  it('keeps the source task spec (reference, inputs...) and stubs it when unknown', () => {
    const plan = createTrialPlanner({ config: parseConfig({ metrics: { default: ['exact_match'] } }, 'c') });
    const withSpec = plan(
      makeTrialItem(
        { task_id: 'A' },
        { intent: 'i', reference: { expected: 'x' }, inputs: { instruction: 'go' }, metadata: { m: 1 } },
      ),
    );
    expect(withSpec.task).toMatchObject({
      id: 'A',
      intent: 'i',
      reference: { expected: 'x' },
      inputs: { instruction: 'go' },
      metadata: { m: 1 },
    });
    expect(plan(makeTrialItem({ task_id: 'Z' })).task).toEqual({
      id: 'Z',
      intent: '',
      inputs: {},
      reference: {},
      metrics: [expect.objectContaining({ type: 'exact_match' })],
      views: {},
      metadata: {},
    });
  });

  it('without config metrics: chosen from the first trial of each task and kept for the task', () => {
    const warnings: string[] = [];
    const plan = createTrialPlanner({ config: parseConfig({}, 'c'), onWarning: (w) => warnings.push(w) });
    const first = plan(makeTrialItem({ id: 'a1', metadata: { reward: 1 } }));
    expect(first.metrics.map((m) => m.type)).toEqual(['verifier_reward']);
    expect(plan(makeTrialItem({ id: 'a2', metadata: {} })).metrics).toBe(first.metrics);
    const none = plan(makeTrialItem({ id: 'b1', task_id: 'B' }));
    expect(none.metrics).toEqual([]);
    plan(makeTrialItem({ id: 'c1', task_id: 'C' }));
    expect(warnings).toEqual([
      "task 'B': no metric applies (no config metrics, no trace evidence, no recorded reward); its trials get no scores",
      "task 'C': no metric applies (no config metrics, no trace evidence, no recorded reward); its trials get no scores",
    ]);
  });

  it('shares the default metrics and their descriptors between tasks with the same default list', () => {
    const plan = createTrialPlanner({ config: parseConfig({}, 'c') });
    const a = plan(makeTrialItem({ id: 'a1', task_id: 'A', metadata: { reward: 1 } }));
    const b = plan(makeTrialItem({ id: 'b1', task_id: 'B', metadata: { reward: 0 } }));
    const c = plan(
      makeTrialItem({ id: 'c1', task_id: 'C', output: { output_text: 'x', response: null, metadata: {} } }),
    );
    expect(b.metrics).toBe(a.metrics);
    expect(b.task.metrics).toBe(a.task.metrics);
    expect(b.task.id).toBe('B');
    expect(c.metrics).not.toBe(a.metrics);
    // configured lists are shared too (one descriptor list per configured list)
    const configured = createTrialPlanner({ config: parseConfig({ metrics: { default: ['usage'] } }, 'c') });
    const x = configured(makeTrialItem({ task_id: 'X' }));
    expect(configured(makeTrialItem({ task_id: 'Y' })).task.metrics).toBe(x.task.metrics);
  });

  it('skips (and warns once about) a default metric missing from the registry', () => {
    const warnings: string[] = [];
    const plan = createTrialPlanner({
      config: parseConfig({}, 'c'),
      registry: {},
      onWarning: (w) => warnings.push(w),
    });
    plan(makeTrialItem({ id: 'a1', metadata: { reward: 1 } }));
    plan(makeTrialItem({ id: 'b1', task_id: 'B', metadata: { reward: 1 } }));
    expect(warnings.filter((w) => w.startsWith('default metric'))).toEqual([
      "default metric 'verifier_reward' is not registered; skipped",
    ]);
  });

  it('applies config views, per task first; a view that does not fit evidence-chosen metrics is a ConfigError', () => {
    const config = parseConfig(
      {
        views: {
          default: { r: single('verifier_reward', 'reward') },
          tasks: { B: { bad: single('exact_match', 'score') } },
        },
      },
      'evalstream.config.ts',
    );
    const plan = createTrialPlanner({ config, configFile: 'evalstream.config.ts' });
    expect(plan(makeTrialItem({ metadata: { reward: 1 } })).task.views).toEqual({
      r: single('verifier_reward', 'reward'),
    });
    expect(() => plan(makeTrialItem({ task_id: 'B', metadata: { reward: 1 } }))).toThrow(ConfigError);
    expect(() => plan(makeTrialItem({ task_id: 'C' }))).toThrow(
      "evalstream.config.ts: views.default: task 'C': view 'r' signal 0: no metric 'verifier_reward' in this task (metrics: none)",
    );
  });

  it("keeps the source spec's views that fit and drops the others with a warning", () => {
    const warnings: string[] = [];
    const plan = createTrialPlanner({
      config: parseConfig({ metrics: { default: ['exact_match'] } }, 'c'),
      onWarning: (w) => warnings.push(w),
    });
    const p = plan(
      makeTrialItem(
        {},
        makeTask({ views: { ok: single('exact_match', 'score'), gone: single('harbor_reward', 'reward') } }),
      ),
    );
    expect(Object.keys(p.task.views)).toEqual(['ok']);
    expect(warnings).toEqual([
      "task 'A': view 'gone' dropped: view 'gone' signal 0: no metric 'harbor_reward' in this task (metrics: exact_match)",
    ]);
  });
});
