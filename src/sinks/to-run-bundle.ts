import type { ScoredTrial } from '../model/scored-trial.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FILES, DIAGNOSTICS_FILE_NAME } from '../bundle/bundle-files.js';
import type { BundleSummaryEngine } from '../bundle/bundle-summary-engine.js';
import { declaredValueSchemas } from '../bundle/declared-value-schemas.js';
import { evalstreamVersion } from '../bundle/evalstream-version.js';
import { EvidencePlacer } from '../bundle/evidence-placer.js';
import { incompleteBundleDir } from '../bundle/incomplete-bundle-dir.js';
import type { InputDiagnostics } from '../bundle/input-diagnostics.js';
import { JsonlWriter } from '../bundle/jsonl-writer.js';
import { metadataToWire, taskToWire } from '../bundle/to-wire.js';
import { scoreJson, trialJson } from '../bundle/row-json.js';
import { newRunId } from '../bundle/new-run-id.js';
import { pythonJson } from '../pycompat/python-json.js';
import { readJsonlRows } from '../bundle/read-jsonl-rows.js';
import type { ReportWriter, StreamedReport } from '../bundle/report-writer.js';
import { rowFastChecks } from '../bundle/row-fast-checks.js';
import { rowSchemas } from '../bundle/row-schemas.js';
import type { RunTarget } from '../bundle/run-metadata.js';
import { bundleRunManifest } from '../bundle/bundle-run-manifest.js';
import { StagedBundleDir } from '../bundle/staged-bundle-dir.js';
import { SummaryAccumulator } from '../bundle/summary-accumulator.js';
import { rowSources } from '../bundle/row-sources.js';
import { summaryJsonBytes } from '../bundle/summary-json-bytes.js';
import { STATS_FILE_NAME } from '../stats/stats-file-name.js';
import { statsJsonText } from '../stats/stats-json-text.js';
import type { Sink } from './sink.js';

/** Options of {@link toRunBundle}. */
export interface ToRunBundleOptions {
  /** Run id for `run.json`; default: the `run_id` of the first score, else a new `agent-eval-…` id. */
  runId?: string;
  /**
   * The task list, when known up front: `tasks.jsonl` lists exactly these, in this order, and a trial
   * of another task is an error. Without it, tasks are the first `ScoredTrial.task` seen per id, in
   * arrival order. Either way the in-memory summary takes each score as it is written.
   */
  tasks?: readonly TaskSpec[];
  /** `metadata.json` labels (recorded verbatim). */
  labels?: Record<string, string>;
  /** Who produced the trials; default null (imported). */
  target?: RunTarget | null;
  /** Runner-contributed aggregates appended to the summary unchanged. */
  extraScores?: readonly AggregateScore[];
  /** Writes `report.html` after the data files (the `--no-report` seam); omit or null for none. */
  reportWriter?: ReportWriter | null;
  /** Evidence under these directories (e.g. the bundle trials were read from) is copied in. */
  evidenceRoots?: readonly string[];
  /** Clock for `started_at` / `finished_at` / the generated run id (tests inject one). */
  clock?: () => Date;
  /**
   * Computes `summary.json` at shutdown from the written `scores.jsonl` instead of the in-memory
   * engine (e.g. DuckDB SQL, `score --engine duckdb`); omit or null for memory.
   */
  summaryEngine?: BundleSummaryEngine | null;
  /**
   * With the in-memory summary: how far it may grow before another engine takes the summary over
   * (`score --engine auto`). Omit or null: the in-memory summary whatever the run's size.
   */
  summaryOverflow?: SummaryOverflow | null;
  /** Receives the summary once `summary.json` is written (e.g. to print it without reading it back). */
  onSummary?: (summary: Summary) => void;
  /**
   * Problems of the input that attach to no trial, reported by the sources as the run goes: written
   * at the end to `diagnostics.jsonl` (after the trials' rows, trial and task ids null) and counted
   * in the report.
   */
  inputDiagnostics?: InputDiagnostics | null;
}

/**
 * The in-memory summary first, and another engine once the run outgrows it: past `maxScores` score
 * records the in-memory summary is dropped, and at shutdown `engine()` summarizes the bundle's files.
 */
export interface SummaryOverflow {
  maxScores: number;
  /** Called at most once, at shutdown, and only when the run passed `maxScores`. */
  engine: () => Promise<BundleSummaryEngine>;
}

interface OpenState {
  staged: StagedBundleDir;
  trials: JsonlWriter;
  scores: JsonlWriter;
  /** Opened at the first trial with diagnostics. */
  diagnostics: JsonlWriter | null;
  placer: EvidencePlacer;
}

/**
 * A sink that writes a run bundle (spec §8) to `dir`, byte-compatible with the SDK's `persist_run`:
 * `trials.jsonl` and `scores.jsonl` stream line by line into a staging directory inside `dir`, and
 * each score goes into the summary as it passes (nothing written is read back); `shutdown` writes `summary.json`, `tasks.jsonl`, `metadata.json` and `run.json`, renames every file
 * into place (`run.json` last) and then runs the report writer. Evidence refs inside `dir` are stored
 * bundle-relative. Trials' diagnostics (`TrialItem.diagnostics`), then the input's
 * (`inputDiagnostics`), go to `diagnostics.jsonl`, a file written only when there are some. A failure before `shutdown` leaves any earlier bundle in `dir` untouched; `abort`
 * (a failed run) writes what arrived to `dir` only when no bundle is there yet, else beside it to
 * `<dir>.incomplete`, and nothing at all when nothing arrived. A run without a single trial never
 * replaces a bundle.
 *
 * @example
 * const sink = toRunBundle('runs/r1', { labels: { benchmark: 'demo' } });
 * for (const scored of results) await sink.write(scored);
 * await sink.shutdown();
 */
export function toRunBundle(dir: string, options: ToRunBundleOptions = {}): Sink<ScoredTrial> {
  return new RunBundleSink(dir, options);
}

class RunBundleSink implements Sink<ScoredTrial> {
  readonly #dir: string;
  readonly #options: ToRunBundleOptions;
  readonly #clock: () => Date;
  readonly #startedAt: Date;
  readonly #fixedTasks: Map<string, TaskSpec> | null;
  readonly #seenTasks = new Map<string, TaskSpec>();
  /** The in-memory summary; null with another engine, or once the run outgrew it (`summaryOverflow`). */
  #live: SummaryAccumulator | null;
  /** Score records `#live` has taken. */
  #liveScores = 0;
  readonly #errorTrials: Pick<Trial, 'id' | 'error'>[] = [];
  readonly #report: StreamedReport | null;
  #state: Promise<OpenState> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #runId: string | null;
  #shutdown: Promise<void> | null = null;
  readonly #hadBundle: boolean;

  constructor(dir: string, options: ToRunBundleOptions) {
    this.#dir = dir;
    this.#hadBundle = existsSync(join(dir, BUNDLE_FILES.run));
    this.#options = options;
    this.#clock = options.clock ?? (() => new Date());
    this.#startedAt = this.#clock();
    this.#runId = options.runId ?? null;
    this.#fixedTasks = options.tasks ? new Map(options.tasks.map((t) => [t.id, t])) : null;
    this.#live = options.summaryEngine ? null : new SummaryAccumulator(options.tasks ?? []);
    this.#report = options.reportWriter?.stream?.() ?? null;
  }

  write(scored: ScoredTrial): Promise<void> {
    if (this.#shutdown !== null) return Promise.reject(new Error('toRunBundle: write after shutdown'));
    // serialise writes so trials and scores keep arrival order even if callers do not await
    const next = this.#queue.then(() => this.#write(scored));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #write(scored: ScoredTrial): Promise<void> {
    const state = await this.#open();
    const trial = scored.item.trial;
    let task = scored.task;
    if (this.#fixedTasks !== null) {
      const fixed = this.#fixedTasks.get(trial.task_id);
      if (fixed === undefined)
        throw new Error(`toRunBundle: trial '${trial.id}' names unknown task '${trial.task_id}'`);
      task = fixed;
    } else if (!this.#seenTasks.has(task.id)) {
      this.#seenTasks.set(task.id, task);
      this.#live?.addTaskSpec(task);
    }
    const mapRef = await state.placer.place(trial);
    // the trial's metadata is in each of its scores too: written once
    const metadata = { value: trial.metadata, text: pythonJson(trial.metadata) };
    await state.trials.writeLine(trialJson(trial, mapRef, metadata.text));
    for (const d of scored.item.diagnostics ?? []) {
      state.diagnostics ??= await JsonlWriter.create(state.staged.file(DIAGNOSTICS_FILE_NAME));
      await state.diagnostics.writeLine(pythonJson({ trial_id: trial.id, task_id: trial.task_id, ...d }));
    }
    const lookup = declaredValueSchemas(task);
    for (const score of scored.scores) {
      this.#runId ??= score.run_id;
      await state.scores.writeLine(scoreJson(score, lookup, metadata));
      this.#live?.addScore(score, task);
    }
    if (this.#live !== null) this.#live.addTrial(trial);
    // errors are kept for another engine's error rollup whenever one may compute the summary
    if (trial.error !== null && (this.#live === null || this.#options.summaryOverflow))
      this.#errorTrials.push({ id: trial.id, error: trial.error });
    const overflow = this.#options.summaryOverflow;
    if (this.#live !== null && overflow && (this.#liveScores += scored.scores.length) > overflow.maxScores)
      this.#live = null;
    await this.#report?.add(scored);
  }

  #open(): Promise<OpenState> {
    this.#state ??= (async () => {
      const staged = await StagedBundleDir.open(this.#dir);
      return {
        staged,
        trials: await JsonlWriter.create(staged.file(BUNDLE_FILES.trials)),
        scores: await JsonlWriter.create(staged.file(BUNDLE_FILES.scores)),
        diagnostics: null,
        placer: new EvidencePlacer(staged.dir, this.#options.evidenceRoots ?? []),
      };
    })();
    return this.#state;
  }

  async flush(): Promise<void> {
    await this.#queue;
    if (this.#state === null) return;
    const state = await this.#state;
    await state.trials.flush();
    await state.scores.flush();
    await state.diagnostics?.flush();
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= (async () => {
      await this.#queue;
      // a run without a single trial never replaces a bundle
      if (this.#state === null && this.#hadBundle) return;
      await this.#finish(null);
    })();
    return this.#shutdown;
  }

  abort(): Promise<void> {
    this.#shutdown ??= (async () => {
      await this.#queue;
      if (this.#state === null) return;
      await this.#finish(this.#hadBundle ? incompleteBundleDir(this.#dir) : null);
    })();
    return this.#shutdown;
  }

  /** Writes the remaining files and moves the bundle into `dir`, or into `into` when given. */
  async #finish(into: string | null): Promise<void> {
    await this.#queue;
    const state = await this.#open();
    const { staged } = state;
    let report: Parameters<StreamedReport['finish']>[0] | null = null;
    try {
      await state.trials.close();
      await state.scores.close();
      for (const row of this.#options.inputDiagnostics?.rows() ?? []) {
        state.diagnostics ??= await JsonlWriter.create(staged.file(DIAGNOSTICS_FILE_NAME));
        await state.diagnostics.writeLine(pythonJson({ ...row }));
        this.#report?.addDiagnostic(row);
      }
      await state.diagnostics?.close();
      const tasks =
        this.#fixedTasks !== null ? [...(this.#options.tasks ?? [])] : [...this.#seenTasks.values()];
      const extras = this.#options.extraScores ?? [];
      let finished;
      if (this.#live !== null) {
        finished = this.#live.finish(extras);
      } else {
        const engine = this.#options.summaryEngine ?? (await this.#options.summaryOverflow?.engine());
        if (!engine) throw new Error('toRunBundle: no summary engine');
        // the engine's contract is the bundle's score file (see `BundleSummaryEngine`)
        const file = staged.file(BUNDLE_FILES.scores);
        const scoreBatches = async function* () {
          const rows = readJsonlRows(file, rowSchemas.score, {
            displayName: BUNDLE_FILES.scores,
            fastCheck: rowFastChecks.score,
            register: false,
          });
          for await (const batch of rows) yield { rows: batch.rows, texts: batch.texts as string[] };
        };
        const errorTrials = this.#errorTrials;
        finished = await engine({
          dir: staged.dir,
          runId: this.#runId,
          tasks,
          scoreBatches: scoreBatches(),
          files: { scores: file, trials: null },
          trials: (async function* () {
            yield* errorTrials;
          })(),
          extraScores: extras,
        });
      }
      // the ASCII buffers as they are (no string made of them and encoded again)
      await staged.writeChunks(
        BUNDLE_FILES.summary,
        summaryJsonBytes(finished.summary, finished.isFloat, { newline: true }),
      );
      this.#options.onSummary?.(finished.summary);

      const tasksOut = await JsonlWriter.create(staged.file(BUNDLE_FILES.tasks));
      for (const task of tasks)
        await tasksOut.writeLine(pythonJson(taskToWire(task), { floatPaths: rowSources.floatPaths(task) }));
      await tasksOut.close();

      const finishedAt = this.#clock();
      const runMetadata = {
        labels: this.#options.labels ?? {},
        target: this.#options.target ?? null,
        started_at: formatUtcTimestamp(this.#startedAt),
        finished_at: formatUtcTimestamp(finishedAt),
        duration_sec: (finishedAt.getTime() - this.#startedAt.getTime()) / 1000,
        sdk_version: `evalstream ${evalstreamVersion()}`,
      };
      const metadata = metadataToWire(runMetadata);
      await staged.writeText(BUNDLE_FILES.metadata, pythonJson(metadata, { indent: 2 }) + '\n');

      const runId = this.#runId ?? newRunId(this.#startedAt);
      report = {
        bundleDir: into ?? staged.dir,
        runId,
        metadata: runMetadata,
        tasks,
        summary: finished.summary,
      };
      await staged.writeText(BUNDLE_FILES.run, pythonJson(bundleRunManifest(runId), { indent: 2 }) + '\n');
      await staged.writeText(STATS_FILE_NAME, statsJsonText(finished.summary));
      // a bundle replaced by one without diagnostics keeps none of the old ones
      if (state.diagnostics === null)
        await rm(join(into ?? staged.dir, DIAGNOSTICS_FILE_NAME), { force: true });
      await staged.commit(
        [
          ...(state.diagnostics === null ? [] : [DIAGNOSTICS_FILE_NAME]),
          BUNDLE_FILES.metadata,
          BUNDLE_FILES.tasks,
          BUNDLE_FILES.trials,
          BUNDLE_FILES.scores,
          BUNDLE_FILES.summary,
          STATS_FILE_NAME,
          BUNDLE_FILES.run,
        ],
        into ?? staged.dir,
      );
    } catch (error) {
      await staged.abort();
      throw error;
    }
    // the try block either set `report` or threw
    const run = report as unknown as NonNullable<typeof report>;
    if (this.#report !== null) await this.#report.finish(run);
    else if (this.#options.reportWriter)
      await this.#options.reportWriter(run.bundleDir, { summary: run.summary });
  }
}

/**
 * A UTC timestamp as pydantic writes an aware `datetime`: `YYYY-MM-DDTHH:MM:SSZ`, with six fraction
 * digits when there are sub-second parts.
 *
 * @example
 * formatUtcTimestamp(new Date('2026-07-15T09:30:12.123Z')); // '2026-07-15T09:30:12.123000Z'
 */
export function formatUtcTimestamp(date: Date): string {
  const iso = date.toISOString(); // 2026-07-15T09:30:12.123Z
  const ms = date.getUTCMilliseconds();
  return ms === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 23)}000Z`;
}
