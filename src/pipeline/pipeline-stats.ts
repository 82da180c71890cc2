/** Counts of a pipeline run (see `runPipeline`). */
export interface PipelineStats {
  trials: number;
  scores: number;
  /** Failed scores of failed trials (metric not called). */
  trialFailures: number;
  /** Failed scores from a metric that threw, returned an invalid result, or timed out. */
  metricFailures: number;
}
