import { checkViews } from '../config/check-views.js';
import { ConfigError } from '../config/config-error.js';
import type { EvalstreamConfig } from '../config/evalstream-config.js';
import { type BuiltinMetricEntry, builtinRegistry } from '../metrics/builtin-registry.js';
import { findRecordedRewards } from '../metrics/builtin/find-recorded-rewards.js';
import { toMetricDescriptor } from '../metrics/to-metric-descriptor.js';
import type { Metric } from '../model/metric.js';
import type { MetricDescriptor, SemanticView, TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { Trial } from '../model/trial.js';

/** Options of {@link createTrialPlanner}. */
export interface TrialPlannerOptions {
  config: EvalstreamConfig;
  /** For error messages about views that do not fit the evidence-chosen metrics. */
  configFile?: string;
  /** Where default metrics come from. Default the built-in registry. */
  registry?: Readonly<Record<string, BuiltinMetricEntry>>;
  /** Called once per distinct notice (no metric applies, a default metric is not registered, a dropped view). */
  onWarning?: (message: string) => void;
}

/**
 * Decides, per task, how its trials are scored, and returns the plan of each item. Fixed at a task's
 * first trial (so every trial of a task gets the same metrics, and runs are deterministic):
 *
 * - metrics: `config.metrics.tasks[id]`, else `config.metrics.default`, else the built-ins suited to
 *   that first trial's evidence (`defaultMetricNames`);
 * - task: the source's task spec (or a stub with only the id), `metrics` = the applied descriptors;
 * - views: `config.views.tasks[id]`, else `config.views.default` when non-empty (must fit the metrics:
 *   a `ConfigError` otherwise), else the source spec's views that fit (others dropped with a warning);
 * - rowIndex: the task's position in first-seen order.
 *
 * @example
 * const plan = createTrialPlanner({ config });
 * items$.pipe(scoreTrials({ runId, plan }));
 */
export function createTrialPlanner(options: TrialPlannerOptions): (item: TrialItem) => TrialPlan {
  const { config } = options;
  const registry = options.registry ?? builtinRegistry;
  const plans = new Map<string, TrialPlan>();
  /**
   * The built-in metrics made for each list of default metric names, and each metric list's
   * descriptors: shared by every task with that list (as configured lists are), instead of new
   * objects per task, which a live server would keep for every task of its run.
   */
  const defaultLists = new Map<string, Metric[]>();
  const descriptorLists = new Map<Metric[], MetricDescriptor[]>();
  const descriptorsOf = (metrics: Metric[]): MetricDescriptor[] => {
    let descriptors = descriptorLists.get(metrics);
    if (descriptors === undefined) {
      descriptors = metrics.map(toMetricDescriptor);
      descriptorLists.set(metrics, descriptors);
    }
    return descriptors;
  };
  const warned = new Set<string>();
  const warn = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    options.onWarning?.(message);
  };

  const metricsFor = (item: TrialItem, taskId: string): Metric[] => {
    const configured = config.metrics.tasks[taskId] ?? config.metrics.default;
    if (configured !== null) return configured;
    const names = defaultMetricNames(item.trial);
    const key = JSON.stringify(names);
    let metrics = defaultLists.get(key);
    if (metrics !== undefined) return metrics;
    metrics = [];
    for (const name of names) {
      const entry = Object.hasOwn(registry, name) ? registry[name] : undefined;
      if (entry === undefined) warn(`default metric '${name}' is not registered; skipped`);
      else metrics.push(entry.create({}));
    }
    defaultLists.set(key, metrics);
    return metrics;
  };

  const viewsFor = (
    taskId: string,
    metrics: Metric[],
    source: TaskSpec | null,
  ): Record<string, SemanticView> => {
    const own = config.views.tasks[taskId];
    const configured =
      own ?? (Object.keys(config.views.default).length > 0 ? config.views.default : undefined);
    if (configured !== undefined) {
      const problems = checkViews(configured, metrics);
      if (problems.length > 0) {
        const path = own === undefined ? 'views.default' : `views.tasks.${taskId}`;
        throw new ConfigError(
          options.configFile ?? 'config',
          problems.map((message) => ({ path, message: `task '${taskId}': ${message}` })),
        );
      }
      return configured;
    }
    const kept: Record<string, SemanticView> = {};
    for (const [name, view] of Object.entries(source?.views ?? {})) {
      const problems = checkViews({ [name]: view }, metrics);
      if (problems.length === 0) kept[name] = view;
      else warn(`task '${taskId}': view '${name}' dropped: ${problems.join('; ')}`);
    }
    return kept;
  };

  return (item) => {
    const taskId = item.trial.task_id;
    const known = plans.get(taskId);
    if (known !== undefined) return known;
    const metrics = metricsFor(item, taskId);
    if (metrics.length === 0) {
      warn(
        `task '${taskId}': no metric applies (no config metrics, no trace evidence, no recorded reward); its trials get no scores`,
      );
    }
    const source = item.task !== null && item.task.id === taskId ? item.task : null;
    const task: TaskSpec = {
      id: taskId,
      intent: source?.intent ?? '',
      inputs: source?.inputs ?? {},
      reference: source?.reference ?? {},
      metrics: descriptorsOf(metrics),
      views: viewsFor(taskId, metrics, source),
      metadata: source?.metadata ?? {},
    };
    const plan: TrialPlan = { task, metrics, rowIndex: plans.size };
    plans.set(taskId, plan);
    return plan;
  };
}

/** Trace formats `CandidateEvidence.trace()` can open (a null format counts as ATIF). */
const READABLE_TRACE_FORMATS = [null, 'atif', 'otlp'];

/**
 * The built-in metrics that suit a trial's evidence when no config names any: `trajectory_stats`,
 * `token_usage` and `tool_call_efficiency` when it has a readable primary trace (descriptor `trace`,
 * kind `trace`, format atif/otlp/null), then `verifier_reward` when the runner recorded rewards in the
 * trial or output metadata. Pure.
 *
 * @example
 * defaultMetricNames(harborTrial); // ['trajectory_stats', 'token_usage', 'tool_call_efficiency', 'verifier_reward']
 */
export function defaultMetricNames(trial: Trial): string[] {
  const names: string[] = [];
  const trace = trial.evidence?.descriptors['trace'];
  if (trace !== undefined && trace.kind === 'trace' && READABLE_TRACE_FORMATS.includes(trace.format)) {
    names.push('trajectory_stats', 'token_usage', 'tool_call_efficiency');
  }
  const outputMetadata = trial.output?.metadata ?? {};
  if (findRecordedRewards(trial.metadata) !== null || findRecordedRewards(outputMetadata) !== null) {
    names.push('verifier_reward');
  }
  return names;
}

/** How one trial is scored: its task as scored (spec + applied metric descriptors + views), the metric objects, and the task's row index. */
export interface TrialPlan {
  task: TaskSpec;
  metrics: readonly Metric[];
  rowIndex: number;
}
