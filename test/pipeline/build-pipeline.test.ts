import { concat, from, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { fromHarborJob } from '../../src/sources/from-harbor-job.js';
import { makeTrialItem } from '../metrics/make-trial-item.js';
import { MemorySink } from './memory-sink.js';

const HARBOR = 'test/fixtures/harbor/job-2026-01-05';

const outputsOf = (s: ScoredTrial) =>
  Object.fromEntries(
    s.scores.map((x) => [x.metric_type, Object.fromEntries(x.outputs.map((o) => [o.name, o.value]))]),
  );

describe('buildPipeline', () => {
  it('scores a Harbor job with evidence-chosen defaults (values hand-checked against the fixture README)', async () => {
    const sink = new MemorySink<ScoredTrial>();
    const result = await runPipeline(
      buildPipeline({ source: fromHarborJob(HARBOR), sinks: [sink], runId: 'R' }),
    );
    expect(result).toEqual({
      runId: 'R',
      stats: { trials: 3, scores: 8, trialFailures: 0, metricFailures: 0 },
      error: null,
    });
    const [fixBug, hello, multi] = sink.items as [ScoredTrial, ScoredTrial, ScoredTrial];
    // OTLP trace, no verifier result: trajectory metrics only; 7000+8400 in, 900+1200 out, 2 identical bash calls.
    expect(outputsOf(fixBug)).toMatchObject({
      token_usage: { input_tokens: 15400, output_tokens: 2100, total_tokens: 17500 },
      tool_call_efficiency: { max_repeated_tool_calls: 2 },
    });
    expect(outputsOf(hello)).toMatchObject({
      token_usage: { input_tokens: 3970, output_tokens: 147, cached_tokens: 2452 },
      verifier_reward: { reward: 1 },
    });
    expect(outputsOf(multi)).toEqual({ verifier_reward: { reward: 1 } });
    expect(hello.task.metrics.map((m) => m.type)).toEqual([
      'trajectory_stats',
      'token_usage',
      'tool_call_efficiency',
      'verifier_reward',
    ]);
    expect(hello.scores[0]?.id).toBe(`R:${hello.item.trial.task_id}:${hello.item.trial.id}:trajectory_stats`);
    expect(sink.calls.slice(-2)).toEqual(['flush', 'shutdown']);
  });

  it('uses config metrics and scoring options; run id from the config', async () => {
    const config = parseConfig(
      {
        runId: 'cfg-run',
        metrics: {
          default: [
            { name: 'verifier_reward', options: { keys: ['reward'], optionalKeys: ['partial'] } },
            'usage',
          ],
        },
      },
      'c',
    );
    const sink = new MemorySink<ScoredTrial>();
    const { runId, stats } = await runPipeline(
      buildPipeline({ source: fromHarborJob(HARBOR), sinks: [sink], config }),
    );
    expect(runId).toBe('cfg-run');
    // fix-bug has no recorded reward: a metric failure, not a trial failure.
    expect(stats).toEqual({ trials: 3, scores: 6, trialFailures: 0, metricFailures: 1 });
    expect(outputsOf(sink.items[2] as ScoredTrial)['verifier_reward']).toEqual({ reward: 1, partial: 0.5 });
  });

  it('counts trial failures, and reports a source error with the trials written before it', async () => {
    const config = parseConfig({ metrics: { default: ['exact_match'] } }, 'c');
    const items = [
      makeTrialItem({ id: 'a' }, { reference: { expected: 'done' } }),
      makeTrialItem({ id: 'b', status: 'failed', output: null }),
    ];
    const err = new Error('truncated');
    const sink = new MemorySink<ScoredTrial>();
    const result = await runPipeline(
      buildPipeline({
        source: concat(
          from(items),
          throwError(() => err),
        ),
        sinks: [sink],
        config,
        runId: 'R',
      }),
    );
    expect(result.error).toBe(err);
    expect(result.stats).toEqual({ trials: 2, scores: 2, trialFailures: 1, metricFailures: 0 });
    expect(sink.items.map((s) => s.scores[0]?.status)).toEqual(['completed', 'failed']);
    expect(sink.calls.at(-1)).toBe('shutdown');
  });

  it('generates an SDK-style run id by default and forwards warnings', async () => {
    const warnings: string[] = [];
    const p = buildPipeline({
      source: from([makeTrialItem()]),
      sinks: [],
      onWarning: (w) => warnings.push(w),
    });
    expect(p.runId).toMatch(/^agent-eval-\d{14}-[0-9a-f]{8}$/);
    expect((await runPipeline(p)).stats.scores).toBe(0);
    expect(warnings).toHaveLength(1);
  });
});
