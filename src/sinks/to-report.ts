import type { RunTarget } from '../bundle/run-metadata.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { ReportOptions } from '../report/report-options.js';
import { writeReport } from '../report/write-report.js';
import { buildSummary } from '../summary/build-summary.js';
import type { Sink } from './sink.js';
import { appendAll } from '../util/append-all.js';

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
 * A sink that writes a standalone `report.html` (no run bundle) for the scored trials it receives:
 * it keeps trials, scores and tasks in memory, and on `shutdown` builds the summary (`buildSummary`,
 * SDK semantics) and writes the report. `flush` does nothing; `shutdown` is idempotent and may be
 * called without any `write` (an empty report).
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
  const trials: Trial[] = [];
  const scores: ScoreRecord[] = [];
  const seenTasks = new Map<string, TaskSpec>();
  let written: { path: string; bytes: number } | null = null;
  let shutdown: Promise<void> | null = null;
  return {
    get written() {
      return written;
    },
    async write(scored: ScoredTrial): Promise<void> {
      if (shutdown !== null) throw new Error('toReport: write after shutdown');
      trials.push(scored.item.trial);
      appendAll(scores, scored.scores);
      if (!seenTasks.has(scored.task.id)) seenTasks.set(scored.task.id, scored.task);
    },
    async flush(): Promise<void> {},
    shutdown(): Promise<void> {
      shutdown ??= (async () => {
        const finishedAt = clock();
        const tasks = options.tasks ? [...options.tasks] : [...seenTasks.values()];
        const { runId, labels, target, tasks: _tasks, clock: _clock, ...reportOptions } = options;
        written = await writeReport(
          {
            runId: runId ?? scores[0]?.run_id ?? 'report',
            metadata: {
              labels: labels ?? {},
              target: target ?? null,
              started_at: startedAt.toISOString(),
              finished_at: finishedAt.toISOString(),
              duration_sec: (finishedAt.getTime() - startedAt.getTime()) / 1000,
              sdk_version: null,
            },
            tasks,
            trials,
            scores,
            summary: buildSummary({ scores, tasks, trials }),
          },
          outPath,
          reportOptions,
        );
      })();
      return shutdown;
    },
  };
}
