import { describe, expect, it } from 'vitest';
import { continuousScore } from '../../src/metrics/output-specs.js';
import { scoreTrial } from '../../src/metrics/score-trial.js';
import type { Metric, MetricInput } from '../../src/model/metric.js';
import { makeTask, makeTrialItem } from './make-trial-item.js';

function metric(
  type: string,
  compute: (input: MetricInput) => unknown,
  specs = [continuousScore('score')],
): Metric {
  return { type, outputSpec: () => specs, computeScores: async (input) => compute(input) as never };
}

const OPTS = { runId: 'R', rowIndex: 3 };

describe('scoreTrial', () => {
  it('produces one completed score per metric, in metric order, with the SDK id and metadata', async () => {
    const item = makeTrialItem({ id: 'a1', metadata: { seed: 7 } });
    const scores = await scoreTrial(
      item,
      makeTask(),
      [
        metric('m2', () => ({ outputs: [{ name: 'score', value: '0.5' }] })),
        metric('m1', () => ({ outputs: [{ name: 'score', value: 1 }] })),
      ],
      OPTS,
    );
    expect(scores).toEqual([
      {
        id: 'R:A:a1:m2',
        run_id: 'R',
        task_id: 'A',
        trial_id: 'a1',
        metric_type: 'm2',
        status: 'completed',
        outputs: [{ name: 'score', value: '0.5' }],
        diagnostics: [],
        metadata: { row_index: 3, trial_metadata: { seed: 7 } },
      },
      expect.objectContaining({
        id: 'R:A:a1:m1',
        status: 'completed',
        outputs: [{ name: 'score', value: 1 }],
      }),
    ]);
  });

  it('does not call metrics for a failed trial and marks the score as a trial failure', async () => {
    let calls = 0;
    const item = makeTrialItem({ id: "it's", status: 'failed', output: null });
    const [score] = await scoreTrial(item, makeTask(), [metric('m', () => (calls++, { outputs: [] }))], OPTS);
    expect(calls).toBe(0);
    expect(score).toMatchObject({
      status: 'failed',
      outputs: [],
      diagnostics: [
        {
          severity: 'error',
          message: 'trial "it\'s" is failed',
          source: 'm',
          details: { trial_status: 'failed' },
        },
      ],
    });
  });

  it('scores partial trials normally', async () => {
    const [score] = await scoreTrial(
      makeTrialItem({ status: 'partial' }),
      makeTask(),
      [metric('m', () => ({ outputs: [{ name: 'score', value: 0 }] }))],
      OPTS,
    );
    expect(score?.status).toBe('completed');
  });

  it('turns a throw into a failed score with the message and the class name', async () => {
    class JudgeError extends Error {}
    const [a, b, c, d] = await scoreTrial(
      makeTrialItem(),
      makeTask(),
      [
        metric('a', () => {
          throw new JudgeError('judge down');
        }),
        metric('b', () => {
          throw new TypeError('');
        }),
        metric('c', () => Promise.reject(new Error('async boom'))),
        metric('d', () => {
          throw 'plain string';
        }),
      ],
      OPTS,
    );
    expect(a?.diagnostics).toEqual([
      { severity: 'error', message: 'judge down', source: 'a', details: { exception_type: 'JudgeError' } },
    ]);
    expect(b?.diagnostics[0]).toMatchObject({
      message: 'TypeError',
      details: { exception_type: 'TypeError' },
    });
    expect(c?.diagnostics[0]).toMatchObject({ message: 'async boom', details: { exception_type: 'Error' } });
    expect(d?.diagnostics[0]).toMatchObject({
      message: 'plain string',
      details: { exception_type: 'UnknownException' },
    });
    expect([a, b, c, d].every((s) => s?.status === 'failed' && s.outputs.length === 0)).toBe(true);
  });

  it('turns a validation failure into a failed score; other metrics are unaffected', async () => {
    const [bad, good] = await scoreTrial(
      makeTrialItem(),
      makeTask(),
      [
        metric('bad', () => ({ outputs: [] })),
        metric('good', () => ({ outputs: [{ name: 'score', value: 1 }] })),
      ],
      OPTS,
    );
    expect(bad?.diagnostics[0]).toEqual({
      severity: 'error',
      message: "Missing required metric outputs: ['score']",
      source: 'bad',
      details: { exception_type: 'ValueError' },
    });
    expect(good?.status).toBe('completed');
  });

  it('counts an outputSpec() that throws as a metric failure', async () => {
    const m: Metric = {
      type: 'm',
      outputSpec: () => {
        throw new RangeError('no spec');
      },
      computeScores: async () => ({ outputs: [] }),
    };
    const [s] = await scoreTrial(makeTrialItem(), makeTask(), [m], OPTS);
    expect(s?.diagnostics[0]?.details).toEqual({ exception_type: 'RangeError' });
  });

  it('times out a slow metric as a metric failure', async () => {
    const slow = metric(
      'slow',
      () => new Promise((r) => setTimeout(() => r({ outputs: [{ name: 'score', value: 1 }] }), 500)),
    );
    const fast = metric('fast', () => ({ outputs: [{ name: 'score', value: 1 }] }));
    const [s, f] = await scoreTrial(makeTrialItem(), makeTask(), [slow, fast], { ...OPTS, timeoutMs: 20 });
    expect(s?.status).toBe('failed');
    expect(s?.diagnostics[0]).toEqual({
      severity: 'error',
      message: "metric 'slow' timed out after 20 ms",
      source: 'slow',
      details: { exception_type: 'TimeoutError' },
    });
    expect(f?.status).toBe('completed');
  });

  it('each trial gets its full time limit, whenever it starts (trials share one timer)', async () => {
    const never = metric('never', () => new Promise<never>(() => undefined));
    const fast = metric('fast', () => ({ outputs: [{ name: 'score', value: 1 }] }));
    const opts = { ...OPTS, timeoutMs: 60 };
    // an early trial finishes at once; a later one (started 30 ms after it) must still get 60 ms
    await scoreTrial(makeTrialItem(), makeTask(), [fast], opts);
    await new Promise((r) => setTimeout(r, 30));
    const started = performance.now();
    const late = scoreTrial(makeTrialItem(), makeTask(), [never], opts);
    await new Promise((r) => setTimeout(r, 10));
    const later = scoreTrial(makeTrialItem(), makeTask(), [never], opts);
    const [l] = await late;
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
    expect(l?.diagnostics[0]?.message).toBe("metric 'never' timed out after 60 ms");
    const [m] = await later;
    expect(performance.now() - started).toBeGreaterThanOrEqual(69);
    expect(m?.status).toBe('failed');
  });

  it('rethrows with failFast', async () => {
    const err = new Error('stop');
    await expect(
      scoreTrial(makeTrialItem(), makeTask(), [metric('m', () => Promise.reject(err))], {
        ...OPTS,
        failFast: true,
      }),
    ).rejects.toBe(err);
    await expect(
      scoreTrial(makeTrialItem(), makeTask(), [metric('m', () => ({ outputs: [] }))], {
        ...OPTS,
        failFast: true,
      }),
    ).rejects.toThrow("Missing required metric outputs: ['score']");
  });

  it('still reports a failed trial as a score under failFast (it is not an exception)', async () => {
    const [s] = await scoreTrial(makeTrialItem({ status: 'failed' }), makeTask(), [metric('m', () => ({}))], {
      ...OPTS,
      failFast: true,
    });
    expect(s?.status).toBe('failed');
  });
});
