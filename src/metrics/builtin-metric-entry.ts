import type { Metric } from '../model/metric.js';

/** A built-in metric as configs name it: a one-line summary and a factory taking the config's options. */
export interface BuiltinMetricEntry {
  /** One line for `docs/metrics.md` and error messages. */
  summary: string;
  /** Builds the metric; throws (ZodError, RangeError...) on bad options. */
  create(options: Record<string, unknown>): Metric;
}
