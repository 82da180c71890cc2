import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Summary } from '../model/summary.js';
import type { TrialError } from '../model/trial.js';
import { BUNDLE_FILES, requireBundleFile } from './bundle-files.js';
import { type BundleIssue, BundleReadError } from './bundle-read-error.js';
import type { BundleSummaryEngine } from './bundle-summary-engine.js';
import { previousSummary } from './previous-summary.js';
import { pythonJson } from '../pycompat/python-json.js';
import { readBundleJson } from './read-bundle-json.js';
import { readScoreRows } from './read-score-rows.js';
import { readTaskSpecs } from './read-task-specs.js';
import { forEachJsonlRow } from './read-jsonl-rows.js';
import { forEachDiagnosticRow } from './for-each-diagnostic-row.js';
import { rowFastChecks } from './row-fast-checks.js';
import { readTrialRows } from './read-trial-rows.js';
import { pathInside } from './path-inside.js';
import { collectTrialErrors } from './collect-trial-errors.js';
import type { BundleFedReport, ReportWriter } from './report-writer.js';
import { rowSchemas } from './row-schemas.js';
import type { RunManifest } from './run-manifest.js';
import { STAGING_PREFIX, StagedBundleDir } from './staged-bundle-dir.js';
import { SummaryAccumulator } from './summary-accumulator.js';
import { summaryJsonBytes } from './summary-json-bytes.js';
import { rowSources } from './row-sources.js';
import type { WireObject } from '../pycompat/wire-value.js';
import { STATS_FILE_NAME } from '../stats/stats-file-name.js';
import { statsJsonText } from '../stats/stats-json-text.js';
import { appendAll } from '../util/append-all.js';

/** Options of {@link summarizeBundle}. */
export interface SummarizeBundleOptions {
  /** Write the complete bundle here (built next to it, then renamed); default: update in place. */
  outDir?: string | null;
  /** Writes `report.html` once the data files are in place; omit or null for none (`--no-report`). */
  reportWriter?: ReportWriter | null;
  /** Computes the summary instead of the in-memory engine (e.g. DuckDB SQL); omit or null for memory. */
  summaryEngine?: BundleSummaryEngine | null;
}

/** What {@link summarizeBundle} did. */
export interface SummarizeBundleResult {
  sourceDir: string;
  /** Where the bundle now is (the source dir when updated in place). */
  dir: string;
  inPlace: boolean;
  runId: string;
  summary: Summary;
  /** The bytes of the new `summary.json`, from memory (the file is not read back). */
  summaryBytes: () => Iterable<Buffer>;
  /** Path of the new `summary.json`. */
  summaryPath: string;
  /** Whether `tasks.jsonl` was present (the summary is computed without task specs otherwise). */
  withTaskSpecs: boolean;
  /** The new `summary.json` is byte-identical to the one the bundle had. */
  unchanged: boolean;
  /** A JSONL file ended in a cut-off line (skipped): results are written but incomplete. */
  truncated: boolean;
  /** Non-fatal problems (cut-off lines, an unreadable old summary that was replaced). */
  warnings: BundleIssue[];
  report: { path: string; bytes: number } | null;
}

/**
 * Recomputes `summary.json` of a run bundle from `tasks.jsonl` + `scores.jsonl` (+ `trials.jsonl` for
 * the error rollup), streaming the scores, and writes the bundle: in place (staged files renamed into
 * place) or as a complete copy in `outDir` (evidence included; built in a sibling temp dir, then
 * renamed). Data files are validated and copied byte for byte; runner aggregates (`runner.*`) of the
 * old summary are carried over. Bad input throws `BundleReadError`.
 *
 * @example
 * const result = await summarizeBundle('examples/sparse-run', { outDir: 'runs/sparse-copy' });
 * result.summary.score_count;
 */
export async function summarizeBundle(
  dir: string,
  options: SummarizeBundleOptions = {},
): Promise<SummarizeBundleResult> {
  const src = resolve(dir);
  requireBundleFile(src, BUNDLE_FILES.scores);
  const warnings: BundleIssue[] = [];
  let truncated = false;
  const onTruncatedLine = (issue: BundleIssue): void => {
    truncated = true;
    warnings.push(issue);
  };

  const manifest = await readBundleJson(src, BUNDLE_FILES.run, rowSchemas.runManifest);
  const metadata = await readBundleJson(src, BUNDLE_FILES.metadata, rowSchemas.metadata);
  const tasks = await readTaskSpecs(src);
  const previous = await previousSummary(src);
  appendAll(warnings, previous.warnings);

  let firstRunId: string | null = null;
  const hasTrials = existsSync(join(src, BUNDLE_FILES.trials));
  let finished: Awaited<ReturnType<BundleSummaryEngine>>;
  let fed: BundleFedReport | null = null;
  if (options.summaryEngine) {
    const scoreBatches = async function* () {
      for await (const batch of readScoreRows(src, { onTruncatedLine, register: false })) {
        firstRunId ??= batch.rows[0]?.run_id ?? null;
        yield { rows: batch.rows, texts: batch.texts as string[] };
      }
    };
    const trials = async function* () {
      if (!hasTrials) return;
      const batches = readTrialRows(src, { onTruncatedLine, resolveRefs: false, register: false });
      for await (const batch of batches) yield* batch.rows;
    };
    finished = await options.summaryEngine({
      dir: src,
      runId: manifest?.run_id ?? null,
      tasks,
      scoreBatches: scoreBatches(),
      trials: trials(),
      files: {
        scores: join(src, BUNDLE_FILES.scores),
        trials: hasTrials ? join(src, BUNDLE_FILES.trials) : null,
      },
      extraScores: previous.runnerScores,
    });
    firstRunId ??= finished.runId ?? null;
  } else {
    const accumulator = new SummaryAccumulator(tasks);
    // a report that can be fed while the bundle is read takes the trial rows first (as a report
    // reading the bundle on its own would), here, so the files are read once
    const feed = options.reportWriter?.fromBundle?.(src, tasks) ?? null;
    fed = feed;
    const read =
      feed !== null && hasTrials ? await collectTrialErrors(src, (trial) => feed.addTrial(trial)) : null;
    // row by row: each parsed score is garbage before the next is parsed
    await forEachJsonlRow(
      join(src, BUNDLE_FILES.scores),
      rowSchemas.score,
      {
        displayName: BUNDLE_FILES.scores,
        fastCheck: rowFastChecks.score,
        onTruncatedLine,
        register: false,
      },
      (row, text) => {
        firstRunId ??= row.run_id;
        accumulator.addScore(row, null, text);
        fed?.addScore(row);
      },
    );
    // problems are reported in the order of a sequential read: scores first, then trials
    if (hasTrials) {
      const { ids, types, warnings: trialWarnings, issues } = read ?? (await collectTrialErrors(src));
      for (const w of trialWarnings) onTruncatedLine(w);
      if (issues !== null) throw new BundleReadError(issues);
      for (let i = 0; i < ids.length; i++) {
        accumulator.addTrial({ id: ids[i] as string, error: { type: types[i] as string } as TrialError });
      }
    }
    finished = accumulator.finish(previous.runnerScores);
  }
  // the trials' input diagnostics are kept as they are (in place, or copied with the bundle), checked
  // like the other files and handed to the report
  await forEachDiagnosticRow(src, (row) => fed?.addDiagnostic(row), { onTruncatedLine });
  const { summary, isFloat } = finished;
  const summaryChunks = (): Iterable<Buffer> => summaryJsonBytes(summary, isFloat, { newline: true });
  // compared with the old file while writing (no second pass over hundreds of MB)
  const oldSummary = previous.size === null ? null : join(src, BUNDLE_FILES.summary);
  let unchanged = false;

  let runManifest: RunManifest = manifest ?? {
    run_id: firstRunId ?? basename(src),
    artifacts: Object.fromEntries(
      (['metadata', 'tasks', 'trials', 'scores', 'summary'] as const)
        .filter((k) => k === 'summary' || existsSync(join(src, BUNDLE_FILES[k])))
        .map((k) => [k, BUNDLE_FILES[k]]),
    ),
  };

  const outDir = options.outDir === undefined || options.outDir === null ? src : resolve(options.outDir);
  const inPlace = outDir === src;
  if (inPlace) {
    const staged = await StagedBundleDir.open(src);
    try {
      unchanged = await staged.writeChunks(BUNDLE_FILES.summary, summaryChunks(), oldSummary);
      const names: string[] = [BUNDLE_FILES.summary];
      if (manifest === null) {
        await staged.writeText(BUNDLE_FILES.run, manifestText(runManifest));
        names.push(BUNDLE_FILES.run);
      }
      await staged.commit(names);
    } catch (error) {
      await staged.abort();
      throw error;
    }
  } else {
    await checkOutputDir(src, outDir);
    const tmp = join(dirname(outDir), `${basename(outDir)}.evalstream-tmp-${randomBytes(4).toString('hex')}`);
    try {
      await cp(src, tmp, {
        recursive: true,
        filter: (from) => {
          const rel = relative(src, from);
          return !rel.startsWith(STAGING_PREFIX) && rel !== BUNDLE_FILES.summary;
        },
      });
      const summaryStage = await StagedBundleDir.open(tmp);
      unchanged = await summaryStage.writeChunks(BUNDLE_FILES.summary, summaryChunks(), oldSummary);
      await summaryStage.commit([BUNDLE_FILES.summary]);
      if (manifest === null || 'output_dir' in runManifest || 'dashboard_path' in runManifest) {
        runManifest = { ...runManifest };
        if ('output_dir' in runManifest) runManifest.output_dir = options.outDir as string;
        if ('dashboard_path' in runManifest) runManifest.dashboard_path = null;
        await writeFile(join(tmp, BUNDLE_FILES.run), manifestText(runManifest, manifest), 'utf8');
      }
      await swapInto(tmp, outDir);
    } catch (error) {
      await rm(tmp, { recursive: true, force: true });
      throw error;
    }
  }

  await StagedBundleDir.writeFiles(outDir, { [STATS_FILE_NAME]: statsJsonText(summary) });
  const report =
    fed !== null
      ? await fed.finish({
          bundleDir: outDir,
          runId: runManifest.run_id,
          metadata,
          tasks: tasks ?? [],
          summary,
        })
      : options.reportWriter
        ? await options.reportWriter(outDir, { summary })
        : null;
  if (report !== null && 'dashboard_path' in runManifest) {
    runManifest = { ...runManifest, dashboard_path: join(options.outDir ?? dir, BUNDLE_FILES.report) };
    await StagedBundleDir.writeFiles(outDir, { [BUNDLE_FILES.run]: manifestText(runManifest, manifest) });
  }

  return {
    sourceDir: src,
    dir: outDir,
    inPlace,
    runId: runManifest.run_id,
    summary,
    summaryBytes: summaryChunks,
    summaryPath: join(outDir, BUNDLE_FILES.summary),
    withTaskSpecs: tasks !== null,
    unchanged,
    truncated,
    warnings,
    report,
  };
}

function manifestText(manifest: RunManifest, source?: object | null): string {
  const floatPaths = source ? rowSources.floatPaths(source) : null;
  return pythonJson(manifest as WireObject, { indent: 2, floatPaths }) + '\n';
}

/** `--out` must be new, empty, or an earlier bundle (replaced), and must not overlap the source. */
async function checkOutputDir(src: string, out: string): Promise<void> {
  const fail = (message: string): never => {
    throw new BundleReadError([{ code: 'invalid_output_dir', file: out, path: [], message }]);
  };
  // '' (the same directory: in place) is not inside
  if (pathInside(src, out)) fail('the output directory must not be inside the bundle being summarized');
  if (pathInside(out, src)) fail('the output directory must not contain the bundle being summarized');
  if (!existsSync(out)) return;
  if (!(await stat(out)).isDirectory()) fail('the output path exists and is not a directory');
  const entries = await readdir(out);
  if (entries.length > 0 && !entries.includes(BUNDLE_FILES.run) && !entries.includes(BUNDLE_FILES.scores)) {
    fail('the output directory is not empty and does not hold a run bundle; refusing to replace it');
  }
}

/** Puts `tmp` at `out`: the old directory (if any) is moved aside first and removed after. */
async function swapInto(tmp: string, out: string): Promise<void> {
  if (!existsSync(out)) {
    await rename(tmp, out);
    return;
  }
  const old = `${out}.evalstream-old-${randomBytes(4).toString('hex')}`;
  await rename(out, old);
  await rename(tmp, out);
  await rm(old, { recursive: true, force: true });
}
