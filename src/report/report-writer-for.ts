import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BUNDLE_FILES, requireBundleFile } from '../bundle/bundle-files.js';
import { forEachDiagnosticRow } from '../bundle/for-each-diagnostic-row.js';
import { readBundleJson } from '../bundle/read-bundle-json.js';
import { readScoreRows } from '../bundle/read-score-rows.js';
import { readTaskSpecs } from '../bundle/read-task-specs.js';
import { readTrialRows } from '../bundle/read-trial-rows.js';
import { rowSchemas } from '../bundle/row-schemas.js';
import { SummaryAccumulator } from '../bundle/summary-accumulator.js';
import type { Summary } from '../model/summary.js';
import { ReportCollector, type ReportOptions } from './report-collector.js';
import { writeReportModel } from './write-report-model.js';

/** Options of {@link reportWriterFor}: where to write, and what to embed. */
export interface ReportWriterForOptions extends ReportOptions {
  /** Output file; default `<bundleDir>/report.html`. */
  outPath?: string;
  /** The bundle's summary when the caller has it (e.g. just computed); default: read `summary.json`. */
  summary?: Summary | null;
}

/**
 * Rebuilds `report.html` of a run bundle on disk (evalstream's or the SDK's), streaming its files
 * once each with the bounds of a streamed report: `trials.jsonl` (a row per trial; details and
 * trajectories of the kept selection, refs resolved against the bundle), then `scores.jsonl`, then
 * `diagnostics.jsonl` when present. The
 * summary is the caller's, else `summary.json`, else computed from the scores as `summarize` would.
 * Shaped as the bundle writers' `ReportWriter` seam. Rejects with `BundleReadError` for an unreadable
 * bundle.
 *
 * @example
 * const { path, bytes } = (await reportWriterFor('runs/r1'))!;
 */
export async function reportWriterFor(
  bundleDir: string,
  options: ReportWriterForOptions = {},
): Promise<{ path: string; bytes: number } | null> {
  const dir = resolve(bundleDir);
  requireBundleFile(dir, BUNDLE_FILES.scores);
  const { outPath, summary: known, ...reportOptions } = options;
  const manifest = await readBundleJson(dir, BUNDLE_FILES.run, rowSchemas.runManifest);
  const metadata = await readBundleJson(dir, BUNDLE_FILES.metadata, rowSchemas.metadata);
  const tasks = await readTaskSpecs(dir);
  let summary = known ?? (await readBundleJson(dir, BUNDLE_FILES.summary, rowSchemas.summary));
  const accumulator = summary === null ? new SummaryAccumulator(tasks) : null;
  const collector = new ReportCollector({ ...reportOptions, bundleDir: dir, tasks });

  if (existsSync(join(dir, BUNDLE_FILES.trials))) {
    // refs are resolved against the bundle only for the trials whose trajectory is read
    for await (const batch of readTrialRows(dir, { register: false, resolveRefs: false })) {
      for (const trial of batch.rows) {
        await collector.take(trial);
        accumulator?.addTrial(trial);
      }
    }
  }
  let firstRunId: string | null = null;
  for await (const batch of readScoreRows(dir, { register: false })) {
    const texts = batch.texts as string[];
    for (let i = 0; i < batch.rows.length; i += 1) {
      const score = batch.rows[i] as (typeof batch.rows)[number];
      firstRunId ??= score.run_id;
      collector.addScore(score);
      accumulator?.addScore(score, null, texts[i]);
    }
  }
  await forEachDiagnosticRow(dir, (row) => collector.addDiagnostic(row));
  summary ??= (accumulator as SummaryAccumulator).finish().summary;
  const model = collector.finish({
    runId: manifest?.run_id ?? firstRunId ?? basename(dir),
    metadata,
    summary,
    tasks: tasks ?? [],
  });
  return writeReportModel(model, outPath ?? join(dir, BUNDLE_FILES.report));
}
