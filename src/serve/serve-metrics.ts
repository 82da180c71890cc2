/**
 * The receiver's counters and gauges, rendered in the Prometheus text format at `GET /metrics`.
 * Plain numbers updated by the engine; no global registry.
 *
 * @example
 * const m = new ServeMetrics(); m.spansReceived += 10; m.render();
 */
export class ServeMetrics {
  spansReceived = 0;
  spansRejected = 0;
  spansDuplicate = 0;
  exportsThrottled = 0;
  /** Log records taken (`acceptLogs`), refused (no trace id, trial sealed), and let go unattached. */
  logRecordsReceived = 0;
  logRecordsRejected = 0;
  logRecordsUnattached = 0;
  /** Waits for room by exports that found the queues full (`waitForCapacity`), and their time. */
  exportWaits = 0;
  exportWaitMsSum = 0;
  trialsScored = 0;
  trialsRescored = 0;
  trialsOpen = 0;
  queueDepthSpans = 0;
  scoringQueueTrials = 0;
  /** Scoring latency samples (ms), kept as a fixed set of histogram buckets. */
  readonly latencyBuckets = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
  readonly latencyCounts: number[] = new Array<number>(12).fill(0);
  latencySumMs = 0;
  latencyCount = 0;

  /** Records one trial's scoring latency. */
  observeLatency(ms: number): void {
    let i = this.latencyBuckets.findIndex((upper) => ms <= upper);
    if (i < 0) i = this.latencyBuckets.length;
    this.latencyCounts[i] = (this.latencyCounts[i] ?? 0) + 1;
    this.latencySumMs += ms;
    this.latencyCount += 1;
  }

  /** Records one export's wait for room in the queues. */
  observeExportWait(ms: number): void {
    this.exportWaits += 1;
    this.exportWaitMsSum += ms;
  }

  /** The Prometheus exposition text. */
  render(): string {
    const lines: string[] = [];
    const metric = (name: string, type: string, help: string, value: number): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, `${name} ${value}`);
    };
    metric(
      'evalstream_spans_received_total',
      'counter',
      'Spans accepted by the receiver.',
      this.spansReceived,
    );
    metric(
      'evalstream_spans_rejected_total',
      'counter',
      'Spans refused (partial success or bad request).',
      this.spansRejected,
    );
    metric(
      'evalstream_spans_duplicate_total',
      'counter',
      'Re-sent spans ignored by de-duplication.',
      this.spansDuplicate,
    );
    metric(
      'evalstream_log_records_received_total',
      'counter',
      'Log records accepted (each joins the trial of its trace id).',
      this.logRecordsReceived,
    );
    metric(
      'evalstream_log_records_rejected_total',
      'counter',
      'Log records refused as partial success (no trace id, or their trial already sealed).',
      this.logRecordsRejected,
    );
    metric(
      'evalstream_log_records_unattached_total',
      'counter',
      'Log records let go because no span of their trace came within the idle timeout.',
      this.logRecordsUnattached,
    );
    metric(
      'evalstream_exports_throttled_total',
      'counter',
      'Exports answered 429/RESOURCE_EXHAUSTED.',
      this.exportsThrottled,
    );
    metric(
      'evalstream_export_waits_total',
      'counter',
      'Waits for room by exports that found the queues full (then accepted, or answered 429/RESOURCE_EXHAUSTED).',
      this.exportWaits,
    );
    metric(
      'evalstream_export_wait_ms_sum',
      'counter',
      'Time exports spent waiting for room in the queues (ms).',
      Math.round(this.exportWaitMsSum),
    );
    metric(
      'evalstream_trials_scored_total',
      'counter',
      'Trial scorings (first versions).',
      this.trialsScored,
    );
    metric(
      'evalstream_trials_rescored_total',
      'counter',
      'Trial re-scorings after late spans.',
      this.trialsRescored,
    );
    metric('evalstream_trials_open', 'gauge', 'Trials waiting for completion.', this.trialsOpen);
    metric(
      'evalstream_queue_depth_spans',
      'gauge',
      'Spans accepted and not yet assembled.',
      this.queueDepthSpans,
    );
    metric(
      'evalstream_scoring_queue_trials',
      'gauge',
      'Trials waiting to be scored or stored.',
      this.scoringQueueTrials,
    );
    lines.push('# HELP evalstream_scoring_latency_ms Time from trial completion to stored scores.');
    lines.push('# TYPE evalstream_scoring_latency_ms histogram');
    let cumulative = 0;
    this.latencyBuckets.forEach((upper, i) => {
      cumulative += this.latencyCounts[i] ?? 0;
      lines.push(`evalstream_scoring_latency_ms_bucket{le="${upper}"} ${cumulative}`);
    });
    cumulative += this.latencyCounts[this.latencyBuckets.length] ?? 0;
    lines.push(`evalstream_scoring_latency_ms_bucket{le="+Inf"} ${cumulative}`);
    lines.push(`evalstream_scoring_latency_ms_sum ${this.latencySumMs}`);
    lines.push(`evalstream_scoring_latency_ms_count ${this.latencyCount}`);
    return lines.join('\n') + '\n';
  }
}
