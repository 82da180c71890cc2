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
    // counters end in `_total` or `_sum`; the rest are gauges
    const metrics: [string, string, number][] = [
      ['spans_received_total', 'Spans accepted by the receiver.', this.spansReceived],
      ['spans_rejected_total', 'Spans refused (partial success or bad request).', this.spansRejected],
      ['spans_duplicate_total', 'Re-sent spans ignored by de-duplication.', this.spansDuplicate],
      [
        'log_records_received_total',
        'Log records accepted (each joins the trial of its trace id).',
        this.logRecordsReceived,
      ],
      [
        'log_records_rejected_total',
        'Log records refused as partial success (no trace id, or their trial already sealed).',
        this.logRecordsRejected,
      ],
      [
        'log_records_unattached_total',
        'Log records let go because no span of their trace came within the idle timeout.',
        this.logRecordsUnattached,
      ],
      ['exports_throttled_total', 'Exports answered 429/RESOURCE_EXHAUSTED.', this.exportsThrottled],
      [
        'export_waits_total',
        'Waits for room by exports that found the queues full (then accepted, or answered 429/RESOURCE_EXHAUSTED).',
        this.exportWaits,
      ],
      [
        'export_wait_ms_sum',
        'Time exports spent waiting for room in the queues (ms).',
        Math.round(this.exportWaitMsSum),
      ],
      ['trials_scored_total', 'Trial scorings (first versions).', this.trialsScored],
      ['trials_rescored_total', 'Trial re-scorings after late spans.', this.trialsRescored],
      ['trials_open', 'Trials waiting for completion.', this.trialsOpen],
      ['queue_depth_spans', 'Spans accepted and not yet assembled.', this.queueDepthSpans],
      ['scoring_queue_trials', 'Trials waiting to be scored or stored.', this.scoringQueueTrials],
    ];
    for (const [name, help, value] of metrics) {
      const type = /_(total|sum)$/.test(name) ? 'counter' : 'gauge';
      lines.push(
        `# HELP evalstream_${name} ${help}`,
        `# TYPE evalstream_${name} ${type}`,
        `evalstream_${name} ${value}`,
      );
    }
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
