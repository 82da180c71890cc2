import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { Summary } from '../../src/model/summary.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import type { Sink } from '../../src/sinks/sink.js';
import { fromOtlpFiles } from '../../src/sources/from-otlp-files.js';
import { buildSummary } from '../../src/summary/build-summary.js';

/** The oracle of the live tests: the summary `evalstream score` makes of the same spans written to a file. */
export async function fileSummary(spans: ReadableSpan[], runId: string): Promise<Summary> {
  const dir = await mkdtemp(join(tmpdir(), 'evalstream-live-'));
  const file = join(dir, 'traces.json');
  await writeFile(file, JsonTraceSerializer.serializeRequest(spans)!);
  const collected: ScoredTrial[] = [];
  const sink: Sink<ScoredTrial> = {
    write: async (s) => void collected.push(s),
    flush: async () => {},
    shutdown: async () => {},
  };
  const result = await runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks: [sink], runId }));
  if (result.error !== null) throw result.error;
  const tasks = [...new Map(collected.map((s) => [s.task.id, s.task])).values()];
  return buildSummary({
    scores: collected.flatMap((s) => s.scores),
    tasks,
    trials: collected.map((s) => s.item.trial),
  });
}

/**
 * A summary with its task values sorted by trial id (arrival order differs between a live stream and
 * a file), without the live summary's `intervals` (a file's summary has none).
 */
export function normalizedSummary(summary: Summary): unknown {
  const { intervals: _live, ...plain } = summary as Summary & { intervals?: unknown };
  const copy = JSON.parse(JSON.stringify(plain)) as Summary;
  for (const byKey of Object.values(copy.task_metric_values)) {
    for (const records of Object.values(byKey)) records.sort((a, b) => a.trial_id.localeCompare(b.trial_id));
  }
  for (const ids of Object.values(copy.error_trial_ids)) ids.sort();
  return copy;
}

/**
 * What the live summary is defined as: `buildSummary` over every trial's latest version, tasks in
 * first-scored order, each with its first trial's spec.
 */
export function summaryOfKept(trials: readonly ScoredTrial[]): Summary {
  const tasks = new Map<string, ScoredTrial['task']>();
  for (const t of trials) if (!tasks.has(t.task.id)) tasks.set(t.task.id, t.task);
  return buildSummary({
    scores: trials.flatMap((t) => t.scores),
    tasks: [...tasks.values()],
    trials: trials.map((t) => t.item.trial),
  });
}
