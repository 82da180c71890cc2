import type { ScoredTrial } from '../model/scored-trial.js';
import type { Pipeline } from './build-pipeline.js';

/** What {@link runPipeline} resolves to: the counts, and the error that ended the run early (or null). */
export interface PipelineResult {
  runId: string;
  stats: PipelineStats;
  error: unknown;
}

/**
 * Runs a pipeline to its end and counts what it produced. Never rejects: an error (a truncated input,
 * a sink that cannot write, `failFast`) is returned with the counts reached so far.
 *
 * @example
 * const { stats, error } = await runPipeline(buildPipeline({ source, sinks }), (s) => bar.update(s.trials));
 */
export function runPipeline(
  pipeline: Pipeline,
  onTrial?: (stats: PipelineStats, scored: ScoredTrial) => void,
): Promise<PipelineResult> {
  const stats: PipelineStats = { trials: 0, scores: 0, trialFailures: 0, metricFailures: 0 };
  return new Promise((resolve) => {
    pipeline.scored$.subscribe({
      next: (scored) => {
        stats.trials++;
        for (const score of scored.scores) {
          stats.scores++;
          if (score.status !== 'failed') continue;
          if (score.diagnostics.some((d) => d.details['trial_status'] === 'failed')) stats.trialFailures++;
          else stats.metricFailures++;
        }
        onTrial?.(stats, scored);
      },
      error: (error: unknown) => resolve({ runId: pipeline.runId, stats, error }),
      complete: () => resolve({ runId: pipeline.runId, stats, error: null }),
    });
  });
}

/** Counts of a pipeline run (see `runPipeline`). */
export interface PipelineStats {
  trials: number;
  scores: number;
  /** Failed scores of failed trials (metric not called). */
  trialFailures: number;
  /** Failed scores from a metric that threw, returned an invalid result, or timed out. */
  metricFailures: number;
}
