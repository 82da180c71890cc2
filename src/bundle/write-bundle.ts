import { join } from 'node:path';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import { BUNDLE_FILES, DIAGNOSTICS_FILE_NAME } from './bundle-files.js';
import { declaredValueSchemas } from './declared-value-schemas.js';
import { EvidencePlacer } from './evidence-placer.js';
import { JsonlWriter } from './jsonl-writer.js';
import { metadataToWire, type TaskValueFloatLookup, taskToWire } from './to-wire.js';
import { scoreJson, trialJson } from './row-json.js';
import { pythonJson } from '../pycompat/python-json.js';
import type { ReportWriter } from './report-writer.js';
import type { RunBundle } from './run-bundle.js';
import type { RunManifest } from './run-manifest.js';
import { runnerExtraScores } from './runner-extra-scores.js';
import { StagedBundleDir } from './staged-bundle-dir.js';
import { SummaryAccumulator } from './summary-accumulator.js';
import { summaryJsonBytes } from './summary-json-bytes.js';
import { TaskValueFloatness } from './task-value-floatness.js';
import { rowSources } from './row-sources.js';
import type { WireObject } from '../pycompat/wire-value.js';

/** Options of {@link writeBundle}. */
export interface WriteBundleOptions {
  /** `keep` the bundle's summary (default when it has one) or `recompute` it from the scores. */
  summary?: 'keep' | 'recompute';
  /** Writes `report.html` after the data files; omit or null for no report. */
  reportWriter?: ReportWriter | null;
  /** Evidence under these directories is copied into the new bundle; default: the bundle's own `dir`. */
  evidenceRoots?: readonly string[];
}

/** What {@link writeBundle} wrote. */
export interface WrittenBundle {
  dir: string;
  files: string[];
  summary: Summary;
  report: { path: string; bytes: number } | null;
}

/**
 * Writes a run bundle exactly as the SDK's `persist_run` does (Python `json.dumps` format: JSON with
 * `indent=2, sort_keys=True` and a trailing newline, JSONL one sorted-key object per line), staging
 * every file and renaming it into place (`run.json` last). A bundle read with `readBundle` and written
 * back unchanged is byte-identical.
 *
 * @example
 * const bundle = await readBundle('examples/sparse-run');
 * await writeBundle('runs/sparse-copy', bundle);
 */
export async function writeBundle(
  dir: string,
  bundle: RunBundle,
  options: WriteBundleOptions = {},
): Promise<WrittenBundle> {
  const staged = await StagedBundleDir.open(dir);
  try {
    const roots = options.evidenceRoots ?? (bundle.dir === null ? [] : [bundle.dir]);
    const placer = new EvidencePlacer(staged.dir, roots);
    const files: string[] = [];
    const taskById = new Map<string, TaskSpec>((bundle.tasks ?? []).map((t) => [t.id, t]));

    if (bundle.metadata !== null) {
      await staged.writeText(
        BUNDLE_FILES.metadata,
        jsonFileText(metadataToWire(bundle.metadata), bundle.metadata),
      );
      files.push(BUNDLE_FILES.metadata);
    }
    const writeLines = async <T>(
      name: string,
      rows: readonly T[],
      line: (row: T) => Promise<string> | string,
    ) => {
      const out = await JsonlWriter.create(staged.file(name));
      for (const row of rows) await out.writeLine(await line(row));
      await out.close();
      files.push(name);
    };
    if (bundle.tasks !== null)
      await writeLines(BUNDLE_FILES.tasks, bundle.tasks, (task) => lineText(taskToWire(task), task));
    if (bundle.trials !== null)
      await writeLines(BUNDLE_FILES.trials, bundle.trials, async (trial) =>
        trialJson(trial, await placer.place(trial)),
      );
    if (bundle.diagnostics)
      await writeLines(DIAGNOSTICS_FILE_NAME, bundle.diagnostics, (row) => pythonJson({ ...row }));
    const recompute = options.summary === 'recompute' || bundle.summary === null;
    const accumulator = recompute ? new SummaryAccumulator(bundle.tasks) : null;
    const floats = recompute ? null : new TaskValueFloatness();
    const scoresOut = await JsonlWriter.create(staged.file(BUNDLE_FILES.scores));
    for (const score of bundle.scores) {
      const task = taskById.get(score.task_id);
      const lookup = task === undefined ? undefined : declaredValueSchemas(task);
      await scoresOut.writeLine(scoreJson(score, lookup));
      if (accumulator !== null) accumulator.addScore(score);
      else floats?.addScore(score, lookup);
    }
    await scoresOut.close();
    files.push(BUNDLE_FILES.scores);

    let summary: Summary;
    let isFloat: TaskValueFloatLookup | undefined;
    if (accumulator !== null) {
      for (const trial of bundle.trials ?? []) accumulator.addTrial(trial);
      ({ summary, isFloat } = accumulator.finish(runnerExtraScores(bundle.summary)));
    } else {
      summary = bundle.summary as Summary;
      // a summary read from the bundle keeps its own literals; one built in memory follows the scores
      isFloat = rowSources.isFromText(summary) ? undefined : floats?.lookupFor(summary.task_metric_values);
    }
    await staged.writeChunks(BUNDLE_FILES.summary, summaryJsonBytes(summary, isFloat, { newline: true }));
    files.push(BUNDLE_FILES.summary);

    const manifest: RunManifest = { ...bundle.manifest };
    if ('output_dir' in manifest) manifest.output_dir = dir;
    if ('dashboard_path' in manifest) manifest.dashboard_path = null;
    await staged.writeText(BUNDLE_FILES.run, jsonFileText(manifest as WireObject, bundle.manifest));
    files.push(BUNDLE_FILES.run);
    await staged.commit(files);

    const report = options.reportWriter ? await options.reportWriter(staged.dir) : null;
    if (report !== null && 'dashboard_path' in manifest) {
      manifest.dashboard_path = join(dir, BUNDLE_FILES.report);
      const text = jsonFileText(manifest as WireObject, bundle.manifest);
      await StagedBundleDir.writeFiles(staged.dir, { [BUNDLE_FILES.run]: text });
    }
    return { dir: staged.dir, files, summary, report };
  } catch (error) {
    await staged.abort();
    throw error;
  }
}

function jsonFileText(wire: WireObject, source: object): string {
  return pythonJson(wire, { indent: 2, floatPaths: rowSources.floatPaths(source) }) + '\n';
}

function lineText(wire: WireObject, source: object): string {
  return pythonJson(wire, { floatPaths: rowSources.floatPaths(source) });
}
