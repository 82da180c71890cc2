import type { Metric } from '../model/metric.js';
import type { SemanticView } from '../model/task.js';

/** A metric as a config names it: a built-in name, a built-in with options, or a metric object. */
export type MetricRef = string | { name: string; options?: Record<string, unknown> } | Metric;

/** What a config file exports (see `defineConfig`); every key is optional. */
export interface EvalstreamConfigInput {
  /** Fixed run id; default `agent-eval-<UTC YYYYMMDDHHMMSS>-<8 hex>`. */
  runId?: string;
  /** Recorded verbatim in `metadata.json`. */
  labels?: Record<string, string>;
  metrics?: {
    /** Metrics of every task without its own list; absent = chosen from each task's evidence. */
    default?: MetricRef[];
    /** Per-task metric lists (replace `default` for that task). */
    tasks?: Record<string, MetricRef[]>;
  };
  views?: {
    default?: Record<string, SemanticView | ViewInput>;
    tasks?: Record<string, Record<string, SemanticView | ViewInput>>;
  };
  scoring?: {
    /** Trials scored at once. Default 4. */
    concurrency?: number;
    /** Per-metric time limit in ms; null or 0 = none. Default 60000. */
    timeoutMs?: number | null;
    /** Abort the run on the first metric error instead of recording a failed score. Default false. */
    failFast?: boolean;
  };
}

/** A view as written in a config (`weight` may be omitted). */
export interface ViewInput {
  reducer: SemanticView['reducer'];
  signals: { metric: string; output: string; weight?: number | null }[];
}

/** A validated config with metric objects built (see `parseConfig`). */
export interface EvalstreamConfig {
  runId: string | null;
  labels: Record<string, string>;
  metrics: { default: Metric[] | null; tasks: Record<string, Metric[]> };
  views: { default: Record<string, SemanticView>; tasks: Record<string, Record<string, SemanticView>> };
  scoring: { concurrency: number; timeoutMs: number | null; failFast: boolean };
}

/**
 * Types an `evalstream.config.ts` (identity at runtime).
 *
 * @example
 * export default defineConfig({ metrics: { default: ['exact_match', { name: 'contains', options: { mode: 'any' } }] } });
 */
export function defineConfig(config: EvalstreamConfigInput): EvalstreamConfigInput {
  return config;
}
