import type { CandidateEvidence } from '../evidence/candidate-evidence.js';
import { sharedOtlpFileLoader } from '../evidence/otlp/shared-otlp-file-loader.js';
import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { trialDiagnosticPlace } from '../model/trial-diagnostic-place.js';
import { MEASUREMENT_KEYS, type Trial } from '../model/trial.js';
import { buildReportModel, type ReportModel, type ReportRunInfo } from './build-report-model.js';
import { compactJson, cutText, isEmpty, numOrNull } from './compact-json.js';
import type { ReportScoreDetail, ReportSelection, ReportTrialDetail } from './report-data.js';
import { fnv1aUtf16 } from '../util/fnv1a-utf16.js';
import { readTrialTrajectory } from './read-trial-trajectory.js';
import { ReportRows } from './report-rows.js';

const DEFAULT_BUDGET = 16 * 1024 * 1024;
/** Failed or errored trials (first come), then a deterministic sample of the others, kept by default. */
const DEFAULT_SELECTION_LIMITS = { failed: 200, sample: 100 };

/** Input diagnostics a trial's drill-down lists; the others are counted. */
const MAX_DETAIL_DIAGNOSTICS = 20;

const HOW_TO_GET_THE_REST =
  'Every trial is in the run bundle: "evalstream inspect <bundle-dir>" prints each trial’s tool calls, ' +
  'tokens and final text; "evalstream query --db <file> \'SELECT … FROM trials\'" reads a DuckDB store ' +
  '(written by score --db); "evalstream report <bundle-dir> --trajectories all" embeds every trajectory.';

function scoreDetailOf(score: ScoreRecord, maxText: number): ReportScoreDetail {
  const limits = { maxText };
  const out: ReportScoreDetail = {
    type: score.metric_type,
    status: score.status,
    outputs: score.outputs.map((o): [string, JsonValue] => [o.name, compactJson(o.value, limits)]),
  };
  if (score.diagnostics.length > 0) {
    out.diagnostics = score.diagnostics.map((d) => ({
      severity: d.severity,
      message: cutText(d.message, maxText),
      source: d.source,
      ...(isEmpty(d.details) ? {} : { details: compactJson(d.details, limits) }),
    }));
  }
  const metadata = Object.keys(score.metadata).filter((k) => k !== 'trial_metadata' && k !== 'row_index');
  if (metadata.length > 0) {
    out.metadata = compactJson(Object.fromEntries(metadata.map((k) => [k, score.metadata[k]])), limits);
  }
  return out;
}

function trialDetailOf(trial: Trial, maxText: number): ReportTrialDetail {
  const limits = { maxText };
  const detail: ReportTrialDetail = { scores: [] };
  if (trial.output) {
    const output: NonNullable<ReportTrialDetail['output']> = {};
    if (trial.output.output_text !== null) output.text = cutText(trial.output.output_text, maxText);
    if (trial.output.response !== null && trial.output.response !== undefined) {
      output.response = compactJson(trial.output.response, limits);
    }
    if (!isEmpty(trial.output.metadata)) output.metadata = compactJson(trial.output.metadata, limits);
    detail.output = output;
  }
  if (trial.error) {
    detail.error = {
      type: trial.error.type,
      message: trial.error.message === null ? null : cutText(trial.error.message, maxText),
      traceback: trial.error.traceback === null ? null : cutText(trial.error.traceback, maxText),
      occurredAt: trial.error.occurred_at,
    };
  }
  const measurements = MEASUREMENT_KEYS.map((k) => numOrNull(trial.measurements[k]));
  if (measurements.some((m) => m !== null)) detail.measurements = measurements;
  if (!isEmpty(trial.metadata)) detail.metadata = compactJson(trial.metadata, limits);
  const descriptors = trial.evidence ? Object.entries(trial.evidence.descriptors) : [];
  if (descriptors.length > 0) {
    detail.evidence = descriptors.map(([name, d]): [string, string, string | null, string | null] => [
      name,
      d.kind,
      d.format,
      d.ref,
    ]);
  }
  return detail;
}

function budgetText(bytes: number): string {
  return bytes >= 1048576 ? `${+(bytes / 1048576).toFixed(1)} MiB` : `${bytes} bytes`;
}

function hasTrace(trial: Trial): boolean {
  const descriptors = trial.evidence?.descriptors;
  return descriptors !== undefined && Object.values(descriptors).some((d) => d.kind === 'trace');
}

/**
 * How much of each trial the report embeds. Every trial has a row in the table; the detail (output,
 * error, scores, metadata, trajectory) is kept for a bounded selection: every failed or errored trial
 * up to `maxFailedTrials`, then a deterministic sample of `sampleTrials` others.
 *
 * @example
 * await writeReport(bundle, 'report.html', { trajectories: 'none', maxTextChars: 1000 });
 */
export interface ReportOptions {
  /**
   * `auto` (default): the bounded selection, at most `maxTrajectoryBytes` of trajectories; `all`: the
   * detail and trajectory of every trial (memory and file size grow with the run); `none`: the
   * selection without trajectories.
   */
  trajectories?: 'auto' | 'all' | 'none';
  /** Failed or errored trials whose detail is kept, first come (default 200). */
  maxFailedTrials?: number;
  /** Other trials kept as a deterministic sample (default 100). */
  sampleTrials?: number;
  /** Budget of embedded trajectory JSON for `auto`, in bytes (default 16 MiB). */
  maxTrajectoryBytes?: number;
  /** Longest string kept from outputs, messages, tool arguments and results (default 4000 chars). */
  maxTextChars?: number;
  /** Directory that relative evidence refs resolve against (the bundle directory). */
  bundleDir?: string;
}

/** A trial whose status is `failed` or that carries an error. */
function isFailedTrial(trial: Pick<Trial, 'status' | 'error'>): boolean {
  return trial.status === 'failed' || (trial.error !== null && trial.error !== undefined);
}

/**
 * Decides, one trial at a time, which trials keep their drill-down detail: every failed or errored
 * trial up to `limits.failed` (first come), then a deterministic sample of `limits.sample` others (the
 * smallest FNV-1a hashes (`fnv1aUtf16`, unsigned) of `task id + trial id`, so the same run gives the
 * same sample whatever the order). A sampled trial may later be displaced by one with a smaller hash;
 * `offer` says which row that was, so its detail can be dropped.
 */
class TrajectorySelection {
  #failed = 0;
  /** Sampled rows, largest hash first. */
  readonly #sample: { hash: number; row: number }[] = [];

  constructor(readonly limits: { failed: number; sample: number }) {}

  /** Whether `trial` would be kept now (nothing is recorded). */
  wants(trial: Pick<Trial, 'task_id' | 'id' | 'status' | 'error'>): boolean {
    if (isFailedTrial(trial)) return this.#failed < this.limits.failed;
    if (this.limits.sample <= 0) return false;
    if (this.#sample.length < this.limits.sample) return true;
    return this.#hash(trial) < (this.#sample[0] as { hash: number }).hash;
  }

  /** Records `trial` (at `row`) if it is kept: whether it was, and the sampled row it displaced (or null). */
  offer(
    trial: Pick<Trial, 'task_id' | 'id' | 'status' | 'error'>,
    row: number,
  ): { kept: boolean; dropped: number | null } {
    if (!this.wants(trial)) return { kept: false, dropped: null };
    if (isFailedTrial(trial)) {
      this.#failed += 1;
      return { kept: true, dropped: null };
    }
    const entry = { hash: this.#hash(trial), row };
    const dropped = this.#sample.length >= this.limits.sample ? (this.#sample.shift()?.row ?? null) : null;
    // keep the list sorted by hash, largest first (it holds at most `limits.sample` entries)
    let at = 0;
    while (at < this.#sample.length && (this.#sample[at] as { hash: number }).hash > entry.hash) at += 1;
    this.#sample.splice(at, 0, entry);
    return { kept: true, dropped };
  }

  #hash(trial: Pick<Trial, 'task_id' | 'id'>): number {
    return fnv1aUtf16(`${trial.task_id}\u0000${trial.id}`) >>> 0;
  }
}

/** Options of {@link ReportCollector}: what the report embeds, plus the task list when known. */
export interface ReportCollectorOptions extends ReportOptions {
  /** The task list, when known up front (otherwise the first `ScoredTrial.task` per id). */
  tasks?: readonly TaskSpec[] | null;
}

/**
 * Gathers a report from trials as they pass, in bounded memory: the compact per-trial table
 * (`ReportRows`), and the drill-down detail (output, error, scores, metadata, trajectory) of a bounded
 * selection only: every failed or errored trial up to `maxFailedTrials`, then a deterministic sample of
 * `sampleTrials` others (`TrajectorySelection`), with at most `maxTrajectoryBytes` of trajectories.
 * A trajectory is read from the trial's evidence while the trial is in hand, and only for a trial that
 * is kept. Aggregates and plots come from the finished summary, given to `finish`.
 *
 * Streams feed whole scored trials (`addScored`, with the trial's input diagnostics); a bundle read
 * from disk feeds its trials, then its scores and diagnostics (`addTrial`, `addScore`,
 * `addDiagnostic`), which are matched to rows by task and trial id.
 *
 * @example
 * const collector = new ReportCollector();
 * for (const scored of results) await collector.addScored(scored);
 * const model = collector.finish({ runId: 'r1', metadata: null, summary });
 */
export class ReportCollector {
  readonly #rows = new ReportRows();
  readonly #selection: TrajectorySelection;
  readonly #details = new Map<number, ReportTrialDetail>();
  readonly #trajectoryBytes = new Map<number, number>();
  readonly #options: ReportCollectorOptions;
  readonly #maxText: number;
  readonly #mode: 'auto' | 'all' | 'none';
  readonly #budget: number;
  readonly #seenTasks = new Map<string, TaskSpec>();
  /** Trials read from a bundle share their OTLP dumps: each file is read once, not once per trial. */
  readonly #traceLoaders = { otlp: sharedOtlpFileLoader() };
  #bytes = 0;
  #withTrace = 0;
  #overBudget = 0;

  constructor(options: ReportCollectorOptions = {}) {
    this.#options = options;
    this.#maxText = options.maxTextChars ?? 4000;
    this.#mode = options.trajectories ?? 'auto';
    const all = this.#mode === 'all';
    this.#selection = new TrajectorySelection({
      failed: all ? Infinity : (options.maxFailedTrials ?? DEFAULT_SELECTION_LIMITS.failed),
      sample: all ? Infinity : (options.sampleTrials ?? DEFAULT_SELECTION_LIMITS.sample),
    });
    this.#budget = all ? Infinity : (options.maxTrajectoryBytes ?? DEFAULT_BUDGET);
    for (const task of options.tasks ?? []) this.#rows.addTask(task.id);
  }

  /**
   * Adds one scored trial as it passes: its row, its scores, and (when selected) its detail with the
   * trajectory read from `scored.item.evidence`. The row is then sealed (`ReportRows.seal`): a trial
   * fed this way takes no later scores or diagnostics.
   */
  async addScored(scored: ScoredTrial): Promise<void> {
    if (!this.#seenTasks.has(scored.task.id)) this.#seenTasks.set(scored.task.id, scored.task);
    const { trial, evidence, diagnostics } = scored.item;
    const row = await this.take(trial, evidence);
    for (const d of diagnostics ?? [])
      this.addDiagnostic({ trial_id: trial.id, task_id: trial.task_id, ...d }, row);
    for (const score of scored.scores) this.addScore(score, row);
    // the trial has passed: its row becomes the text the report embeds
    this.#rows.seal(row, this.#details.has(row));
  }

  /**
   * Adds a trial as a row, reading its trajectory (from `evidence` when given, else from its
   * descriptors against `bundleDir`) only when the trial is kept. Returns the row.
   */
  async take(trial: Trial, evidence: CandidateEvidence | null = null): Promise<number> {
    const trajectory =
      this.#mode !== 'none' && this.#selection.wants(trial)
        ? await readTrialTrajectory(trial, {
            evidence,
            maxText: this.#maxText,
            traceLoaders: this.#traceLoaders,
            ...(this.#options.bundleDir === undefined ? {} : { baseDir: this.#options.bundleDir }),
          })
        : null;
    const row = this.#rows.addTrial(trial);
    if (hasTrace(trial)) this.#withTrace += 1;
    const { kept, dropped } = this.#selection.offer(trial, row);
    if (dropped !== null) {
      this.#details.delete(dropped);
      this.#rows.release(dropped);
      this.#bytes -= this.#trajectoryBytes.get(dropped) ?? 0;
      this.#trajectoryBytes.delete(dropped);
    }
    if (!kept) return row;
    const detail = trialDetailOf(trial, this.#maxText);
    if (typeof trajectory === 'string') detail.trajectoryNote = trajectory;
    else if (trajectory !== null) {
      const bytes = JSON.stringify(trajectory).length;
      if (this.#bytes + bytes > this.#budget) {
        this.#overBudget += 1;
        detail.trajectoryNote = 'Not embedded: the report’s trajectory budget was used up.';
      } else {
        this.#bytes += bytes;
        this.#trajectoryBytes.set(row, bytes);
        detail.trajectory = trajectory;
      }
    }
    this.#details.set(row, detail);
    return row;
  }

  /** Adds a score to `row`, or to the row its task and trial id match (bundle order). */
  addScore(score: ScoreRecord, row?: number): void {
    const target = this.#rows.addScore(score, row);
    this.#details.get(target)?.scores.push(scoreDetailOf(score, this.#maxText));
  }

  /**
   * Adds one input diagnostic of a trial to `row`, or to the row its task and trial id match (bundle
   * order: after the trials): counted in the table, listed in a kept trial's drill-down.
   */
  addDiagnostic(d: TrialDiagnosticRow, row?: number): void {
    const target = this.#rows.addDiagnostic(d, row);
    if (target === null) return;
    const detail = this.#details.get(target);
    if (detail === undefined) return;
    detail.diagnostics ??= [];
    if (detail.diagnostics.length < MAX_DETAIL_DIAGNOSTICS) {
      detail.diagnostics.push([
        d.code,
        cutText(trialDiagnosticPlace(d), this.#maxText),
        cutText(d.message, this.#maxText),
      ]);
    } else detail.diagnosticsLeftOut = (detail.diagnosticsLeftOut ?? 0) + 1;
  }

  /** Builds the report's model from what was gathered and the run's finished summary. */
  finish(run: ReportRunInfo & { summary: Summary; tasks?: readonly TaskSpec[] | null }): ReportModel {
    const tasks = run.tasks ?? this.#options.tasks ?? [...this.#seenTasks.values()];
    let kept = 0;
    let keptWithTrace = 0;
    for (const detail of this.#details.values()) {
      if (detail.trajectory !== undefined) kept += 1;
      if (detail.evidence?.some((e) => e[1] === 'trace')) keptWithTrace += 1;
    }
    const selection: ReportSelection = {
      trajectoriesKept: kept,
      trajectoriesTotal: this.#withTrace,
      rule: this.#ruleText(),
      howToGetTheRest: HOW_TO_GET_THE_REST,
    };
    const notes: string[] = [];
    if (this.#mode === 'none' && this.#withTrace > 0) {
      notes.push('Trajectories are not embedded in this report (rebuild with --trajectories auto or all).');
    } else if (keptWithTrace < this.#withTrace) {
      notes.push(
        `Trajectories of ${this.#withTrace - keptWithTrace} of ${this.#withTrace} trials are left out (kept: ${selection.rule}).`,
      );
    }
    if (this.#overBudget > 0) {
      notes.push(
        `${this.#overBudget} selected trajectories are left out: the trajectory budget of ${budgetText(this.#budget)} was used up.`,
      );
    }
    return buildReportModel({
      run,
      summary: run.summary,
      tasks,
      rows: this.#rows,
      details: this.#details,
      selection,
      notes,
      ...(this.#options.maxTextChars === undefined ? {} : { maxTextChars: this.#options.maxTextChars }),
    });
  }

  #ruleText(): string {
    if (this.#mode === 'all') return 'every trial (--trajectories all)';
    const failed = this.#options.maxFailedTrials ?? DEFAULT_SELECTION_LIMITS.failed;
    const sample = this.#options.sampleTrials ?? DEFAULT_SELECTION_LIMITS.sample;
    const budget = budgetText(this.#budget);
    const what = this.#mode === 'none' ? 'details (no trajectories)' : 'details and trajectories';
    return (
      `${what} of every failed or errored trial up to ${failed}, then of a deterministic sample of ` +
      `${sample} other trials (smallest hash of task and trial id)` +
      (this.#mode === 'none' ? '' : `; at most ${budget} of trajectories`)
    );
  }
}
