import { concat, from, lastValueFrom, of, Subject, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { continuousScore } from '../../src/metrics/output-specs.js';
import type { Metric } from '../../src/model/metric.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { scoreTrials } from '../../src/operators/score-trials.js';
import type { TrialPlan } from '../../src/pipeline/create-trial-planner.js';
import { makeTask, makeTrialItem } from '../metrics/make-trial-item.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A metric whose delay (ms) is read from the trial metadata; tracks how many run at once. */
function delayed(stats = { running: 0, max: 0, started: [] as string[] }): Metric & { stats: typeof stats } {
  return {
    stats,
    type: 'delayed',
    outputSpec: () => [continuousScore('score')],
    computeScores: async (input) => {
      stats.started.push(input.row.data.trial.id);
      stats.running++;
      stats.max = Math.max(stats.max, stats.running);
      await sleep(Number(input.row.data.trial.metadata['delay'] ?? 0));
      stats.running--;
      if (input.row.data.trial.metadata['boom'] === true) throw new Error('boom');
      return { outputs: [{ name: 'score', value: 1 }] };
    },
  };
}

function items(delays: number[], extra: (i: number) => Record<string, boolean> = () => ({})): TrialItem[] {
  return delays.map((delay, i) => makeTrialItem({ id: `t${i}`, metadata: { delay, ...extra(i) } }));
}

const planWith =
  (metrics: Metric[]) =>
  (item: TrialItem): TrialPlan => ({ task: makeTask({ id: item.trial.task_id }), metrics, rowIndex: 0 });

describe('scoreTrials', () => {
  it('emits in input order whatever the timings, with at most `concurrency` trials in flight', async () => {
    const m = delayed();
    const delays = [40, 5, 30, 0, 20, 10, 0, 35, 1, 15];
    const out = await lastValueFrom(
      from(items(delays)).pipe(scoreTrials({ runId: 'R', plan: planWith([m]), concurrency: 3 }), toArray()),
    );
    expect(out.map((s) => s.item.trial.id)).toEqual(delays.map((_, i) => `t${i}`));
    expect(out.map((s) => s.scores[0]?.id)).toEqual(delays.map((_, i) => `R:A:t${i}:delayed`));
    expect(m.stats.max).toBe(3);
  });

  it('keeps memory bounded: a slow head blocks new starts beyond `concurrency`', async () => {
    const m = delayed();
    const started: string[][] = [];
    const watcher: Metric = {
      type: 'watch',
      outputSpec: () => [continuousScore('score')],
      computeScores: async (input) => {
        if (input.row.data.trial.id === 't0') {
          await sleep(60);
          started.push([...m.stats.started]);
        }
        return { outputs: [{ name: 'score', value: 0 }] };
      },
    };
    await lastValueFrom(
      from(items([0, 0, 0, 0, 0, 0])).pipe(
        scoreTrials({ runId: 'R', plan: planWith([m, watcher]), concurrency: 2 }),
        toArray(),
      ),
    );
    // While t0 was pending only t0 and t1 had started.
    expect(started[0]).toEqual(['t0', 't1']);
  });

  it('one failing metric never stops the others or the stream', async () => {
    const ok: Metric = {
      type: 'ok',
      outputSpec: () => [continuousScore('score')],
      computeScores: async () => ({ outputs: [{ name: 'score', value: 1 }] }),
    };
    const out = await lastValueFrom(
      from(items([0, 0, 0], (i) => ({ boom: i === 1 }))).pipe(
        scoreTrials({ runId: 'R', plan: planWith([delayed(), ok]) }),
        toArray(),
      ),
    );
    expect(out.map((s) => s.scores.map((x) => x.status))).toEqual([
      ['completed', 'completed'],
      ['failed', 'completed'],
      ['completed', 'completed'],
    ]);
    expect(out[1]?.scores[0]?.diagnostics[0]?.message).toBe('boom');
  });

  it('times out a metric per the option', async () => {
    const out = await lastValueFrom(
      from(items([200])).pipe(
        scoreTrials({ runId: 'R', plan: planWith([delayed()]), timeoutMs: 10 }),
        toArray(),
      ),
    );
    expect(out[0]?.scores[0]?.diagnostics[0]?.details).toEqual({ exception_type: 'TimeoutError' });
  });

  it('errors with failFast', async () => {
    const run = from(items([0, 0], () => ({ boom: true }))).pipe(
      scoreTrials({ runId: 'R', plan: planWith([delayed()]), failFast: true }),
      toArray(),
    );
    await expect(lastValueFrom(run)).rejects.toThrow('boom');
  });

  it('errors when plan throws', async () => {
    const run = from(items([0])).pipe(
      scoreTrials({
        runId: 'R',
        plan: () => {
          throw new Error('bad views');
        },
      }),
    );
    await expect(lastValueFrom(run)).rejects.toThrow('bad views');
  });

  it('passes a source error through after emitting the trials read before it', async () => {
    const err = new Error('truncated');
    const got: string[] = [];
    const run = concat(
      from(items([20, 0])),
      throwError(() => err),
    ).pipe(scoreTrials({ runId: 'R', plan: planWith([delayed()]) }));
    await expect(
      new Promise((resolve, reject) =>
        run.subscribe({
          next: (s) => got.push(s.item.trial.id),
          error: reject,
          complete: () => resolve(null),
        }),
      ),
    ).rejects.toBe(err);
    expect(got).toEqual(['t0', 't1']);
  });

  it('gives each subscription its own ordering state and stops planning when unsubscribed', async () => {
    const op = scoreTrials({ runId: 'R', plan: planWith([delayed()]) });
    const a = await lastValueFrom(from(items([5, 0])).pipe(op, toArray()));
    const b = await lastValueFrom(from(items([0, 5])).pipe(op, toArray()));
    expect([a.length, b.length]).toEqual([2, 2]);

    const subject = new Subject<TrialItem>();
    let planned = 0;
    const sub = subject
      .pipe(scoreTrials({ runId: 'R', plan: (i) => (planned++, planWith([delayed()])(i)) }))
      .subscribe();
    subject.next(items([0])[0] as TrialItem);
    sub.unsubscribe();
    subject.next(items([0])[0] as TrialItem);
    expect(planned).toBe(1);
    expect(subject.observed).toBe(false);
  });

  it('completes on an empty source and refuses a bad concurrency', async () => {
    expect(
      await lastValueFrom(of<TrialItem>().pipe(scoreTrials({ runId: 'R', plan: planWith([]) }), toArray())),
    ).toEqual([]);
    expect(() => scoreTrials({ runId: 'R', plan: planWith([]), concurrency: 0 })).toThrow(RangeError);
  });
});
