import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { continuousScore } from '../../src/metrics/output-specs.js';
import type { Metric } from '../../src/model/metric.js';

const custom: Metric = {
  type: 'my_metric',
  outputSpec: () => [continuousScore('score')],
  computeScores: async () => ({ outputs: [{ name: 'score', value: 1 }] }),
};

function problems(raw: unknown): { path: string; message: string }[] {
  try {
    parseConfig(raw, 'cfg.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return [...(e as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('fills defaults for an empty config', () => {
    expect(parseConfig({}, 'x')).toEqual({
      runId: null,
      labels: {},
      metrics: { default: null, tasks: {} },
      views: { default: {}, tasks: {} },
      scoring: { concurrency: 4, timeoutMs: 60000, failFast: false },
    });
  });

  it('resolves the three kinds of metric reference', () => {
    const c = parseConfig(
      {
        runId: 'run-1',
        labels: { benchmark: 'demo' },
        metrics: {
          default: ['exact_match', { name: 'contains', options: { mode: 'any', type: 'kw' } }, custom],
          tasks: { B: [{ name: 'numeric_match' }] },
        },
        scoring: { concurrency: 8, timeoutMs: null, failFast: true },
      },
      'x',
    );
    expect(c.metrics.default?.map((m) => m.type)).toEqual(['exact_match', 'kw', 'my_metric']);
    expect(c.metrics.default?.[2]).toBe(custom);
    expect(c.metrics.tasks['B']?.map((m) => m.type)).toEqual(['numeric_match']);
    expect(c.scoring).toEqual({ concurrency: 8, timeoutMs: null, failFast: true });
    expect(c.runId).toBe('run-1');
  });

  it('names the path of a bad option, an unknown built-in, and a bad reference', () => {
    expect(
      problems({ metrics: { default: ['exact_match', { name: 'contains', options: { mode: 'most' } }] } }),
    ).toEqual([{ path: 'metrics.default[1].options.mode', message: expect.stringMatching(/all|any/) }]);
    expect(problems({ metrics: { tasks: { A: ['exact'] } } })[0]).toEqual({
      path: 'metrics.tasks.A[0]',
      message: expect.stringMatching(/^unknown built-in metric 'exact'; known: exact_match, /),
    });
    expect(problems({ metrics: { default: [{ name: 'nope' }] } })[0]?.path).toBe('metrics.default[0].name');
    expect(problems({ metrics: { default: [42] } })[0]).toEqual({
      path: 'metrics.default[0]',
      message: expect.stringMatching(/expected a built-in metric name/),
    });
    expect(problems({ metrics: { default: [{ name: 'usage', opts: {} }] } })[0]?.path).toBe(
      'metrics.default[0].opts',
    );
    expect(problems({ metrics: { default: [{ name: 'usage', options: 3 }] } })[0]?.path).toBe(
      'metrics.default[0].options',
    );
  });

  it('refuses duplicate metric types within a list', () => {
    expect(
      problems({ metrics: { default: ['exact_match', { name: 'exact_match', options: { trim: false } }] } }),
    ).toEqual([{ path: 'metrics.default', message: expect.stringMatching(/unique.*exact_match/) }]);
  });

  it('refuses a metric object whose outputs are invalid', () => {
    const bad = { ...custom, outputSpec: () => [continuousScore('a'), continuousScore('a')] };
    expect(problems({ metrics: { default: [bad] } })[0]?.message).toBe(
      "metric 'my_metric': duplicate metric output names: ['a']",
    );
  });

  it('flags unknown keys and wrong types with their paths', () => {
    expect(problems({ metric: {} })).toEqual([{ path: '', message: 'unknown key(s): metric' }]);
    expect(problems({ scoring: { concurrency: 0 } })[0]?.path).toBe('scoring.concurrency');
    expect(problems({ labels: { a: 1 } })[0]?.path).toBe('labels.a');
  });

  it('checks views against the metrics of each task whose list is known', () => {
    const view = (metric: string, output: string) => ({ reducer: 'single', signals: [{ metric, output }] });
    const ok = parseConfig(
      { metrics: { default: ['exact_match'] }, views: { default: { q: view('exact_match', 'score') } } },
      'x',
    );
    expect(ok.views.default).toEqual({
      q: { reducer: 'single', signals: [{ metric: 'exact_match', output: 'score', weight: null }] },
    });
    expect(
      problems({
        metrics: { default: ['exact_match'] },
        views: { default: { q: view('exact_match', 'nope') } },
      }),
    ).toEqual([
      {
        path: 'views.default',
        message: "view 'q' signal 0: metric 'exact_match' declares no output 'nope' (outputs: score)",
      },
    ]);
    expect(
      problems({
        metrics: { tasks: { T: ['usage'] } },
        views: { tasks: { T: { v: view('exact_match', 'score') } } },
      }),
    ).toEqual([
      {
        path: 'views.tasks.T',
        message: "task 'T': view 'v' signal 0: no metric 'exact_match' in this task (metrics: usage)",
      },
    ]);
    // A task with its own metrics inherits the default views, which must then fit its metrics.
    expect(
      problems({
        metrics: { default: ['exact_match'], tasks: { T: ['usage'] } },
        views: { default: { q: view('exact_match', 'score') } },
      })[0]?.message,
    ).toMatch(/^task 'T': view 'q'/);
    // Without a known metric list (evidence defaults) views are checked when scoring.
    expect(parseConfig({ views: { default: { q: view('x', 'y') } } }, 'x').views.default['q']).toBeDefined();
  });

  it('formats the error message with the file name', () => {
    expect(() => parseConfig({ scoring: { failFast: 'yes' } }, 'evalstream.config.json')).toThrow(
      /^evalstream\.config\.json: scoring\.failFast: /,
    );
  });
});
