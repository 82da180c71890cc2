import { NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { discreteScore } from '../../src/metrics/output-specs.js';
import type { Metric } from '../../src/model/metric.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { PullSource } from '../../src/pipeline/pull-source.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { Sink } from '../../src/sinks/sink.js';
import { makeTrialItem } from '../metrics/make-trial-item.js';

const one: Metric = {
  type: 'one',
  outputSpec: () => [discreteScore('one')],
  computeScores: () => Promise.resolve({ outputs: [{ name: 'one', value: 1 }] }),
};
const config = parseConfig({ metrics: { default: [one] } }, '(test)');

/** `count` trials, each carrying `bytes` of its own (as a trial carries the frames its spans point into). */
function heavyTrials(count: number, bytes: number): PullSource<TrialItem> {
  return new PullSource(async function* () {
    for (let i = 0; i < count; i += 1) {
      const item = makeTrialItem({ id: `t${i}`, task_id: 't' });
      yield Object.assign(item, { payload: Buffer.alloc(bytes, i) });
    }
  });
}

/** A sink that records the most memory held in buffers while it was writing. */
function peakSink(): Sink<ScoredTrial> & { peak: number; written: number } {
  return {
    peak: 0,
    written: 0,
    write(this: { peak: number; written: number }) {
      this.written += 1;
      this.peak = Math.max(this.peak, process.memoryUsage().arrayBuffers);
      return Promise.resolve();
    },
    flush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

describe('buildPipeline with an interrupt', () => {
  it('holds no trial once it has passed: 500 MB of trials go through in bounded memory', async () => {
    const sink = peakSink();
    const before = process.memoryUsage().arrayBuffers;
    const result = await runPipeline(
      buildPipeline({ source: heavyTrials(250, 2 << 20), sinks: [sink], config, interrupt: NEVER }),
    );
    expect(result.error).toBeNull();
    expect(sink.written).toBe(250);
    // every trial kept until the end would hold 500 MB; a bounded road holds a few at a time (plus
    // what the collector has not reclaimed yet)
    expect(sink.peak - before).toBeLessThan(200 << 20);
  });

  it('ends the run with the interrupt’s error, the trials before it written', async () => {
    const interrupt = new Subject<never>();
    const sink = peakSink();
    const source = new PullSource(async function* () {
      for (let i = 0; ; i += 1) {
        if (i === 3) interrupt.error(new Error('interrupted by SIGINT'));
        yield makeTrialItem({ id: `t${i}`, task_id: 't' });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    });
    const result = await runPipeline(
      buildPipeline({ source, sinks: [sink], config, interrupt: interrupt.asObservable() }),
    );
    expect((result.error as Error).message).toBe('interrupted by SIGINT');
    expect(result.stats.trials).toBe(sink.written);
    expect(sink.written).toBeLessThanOrEqual(3);
  });
});
