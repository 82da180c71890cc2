import type { RunTarget } from '../bundle/run-metadata.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TaskSpec } from '../model/task.js';
import { ReportCollector, type ReportOptions } from '../report/report-collector.js';
import { writeReportModel } from '../report/write-report-model.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import type { Sink } from './sink.js';

/** Options of {@link toReport}: the run's identity plus what the report embeds. */
export interface ToReportOptions extends ReportOptions {
  /** Run id shown in the header; default: the `run_id` of the first score, else `report`. */
  runId?: string;
  /** The task list, when known (otherwise the first `ScoredTrial.task` per id, in arrival order). */
  tasks?: readonly TaskSpec[];
  labels?: Record<string, string>;
  target?: RunTarget | null;
  /** Clock for the started/finished times in the header (tests inject one). */
  clock?: () => Date;
}

/** A report sink; after `shutdown` resolves, `written` says where the report went and its size. */
export interface ReportSink extends Sink<ScoredTrial> {
  readonly written: { path: string; bytes: number } | null;
}

/**
 * A sink that writes a standalone `report.html` (no run bundle) for the scored trials it receives. It
 * keeps only the report's compact table and the bounded selection of trial details and trajectories
 * (read from each trial's evidence as it passes, see `ReportCollector`), plus what the summary needs;
 * on `shutdown` it finishes the summary (SDK semantics) and writes the report. `flush` does nothing;
 * `shutdown` is idempotent and may be called without any `write` (an empty report).
 *
 * @example
 * const sink = toReport('out/report.html', { labels: { benchmark: 'demo' } });
 * for (const scored of results) await sink.write(scored);
 * await sink.shutdown();
 * console.log(sink.written?.bytes);
 */
export function toReport(outPath: string, options: ToReportOptions = {}): ReportSink {
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock();
  const { runId, labels, target, tasks: fixedTasks, clock: _clock, ...reportOptions } = options;
  const collector = new ReportCollector({ ...reportOptions, tasks: fixedTasks ?? null });
  // a builder with task specs that learns each task as its first trial passes
  const summary = new SummaryBuilder(fixedTasks ?? []);
  const seenTasks = new Map<string, TaskSpec>();
  let firstRunId: string | null = null;
  let written: { path: string; bytes: number } | null = null;
  let shutdown: Promise<void> | null = null;
  return {
    get written() {
      return written;
    },
    async write(scored: ScoredTrial): Promise<void> {
      if (shutdown !== null) throw new Error('toReport: write after shutdown');
      if (!seenTasks.has(scored.task.id)) {
        seenTasks.set(scored.task.id, scored.task);
        if (!fixedTasks) summary.addTaskSpec(scored.task);
      }
      for (const score of scored.scores) {
        firstRunId ??= score.run_id;
        summary.addScore(score);
      }
      summary.addTrial(scored.item.trial);
      await collector.addScored(scored);
    },
    async flush(): Promise<void> {},
    shutdown(): Promise<void> {
      shutdown ??= (async () => {
        const finishedAt = clock();
        const model = collector.finish({
          runId: runId ?? firstRunId ?? 'report',
          metadata: {
            labels: labels ?? {},
            target: target ?? null,
            started_at: startedAt.toISOString(),
            finished_at: finishedAt.toISOString(),
            duration_sec: (finishedAt.getTime() - startedAt.getTime()) / 1000,
            sdk_version: null,
          },
          tasks: fixedTasks ? [...fixedTasks] : [...seenTasks.values()],
          summary: summary.finish(),
        });
        written = await writeReportModel(model, outPath);
      })();
      return shutdown;
    },
  };
}
