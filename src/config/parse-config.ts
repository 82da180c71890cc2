import { formatJsonPath } from '../util/format-json-path.js';
import { checkViews } from './check-views.js';
import { ConfigError, type ConfigProblem } from './config-error.js';
import type { EvalstreamConfig } from './evalstream-config.js';
import { evalstreamConfigSchema } from './evalstream-config-schema.js';

/**
 * Validates a config object (what a config file exports) and builds its metrics. Also checks the
 * views of every task whose metric list is known. Throws {@link ConfigError} naming `file` and each
 * problem's path.
 *
 * @example
 * const config = parseConfig({ metrics: { default: ['exact_match'] } }, 'evalstream.config.json');
 * config.metrics.default?.[0]?.type; // 'exact_match'
 */
export function parseConfig(raw: unknown, file: string): EvalstreamConfig {
  const parsed = evalstreamConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      file,
      parsed.error.issues.map((i) => ({
        path: formatConfigPath(i.path),
        message: i.code === 'unrecognized_keys' ? `unknown key(s): ${i.keys.join(', ')}` : i.message,
      })),
    );
  }
  const c = parsed.data;
  const config: EvalstreamConfig = {
    runId: c.runId ?? null,
    labels: c.labels,
    metrics: { default: c.metrics.default ?? null, tasks: c.metrics.tasks },
    views: { default: c.views.default, tasks: c.views.tasks },
    scoring: c.scoring,
  };
  const problems: ConfigProblem[] = [];
  if (config.metrics.default !== null) {
    for (const m of checkViews(config.views.default, config.metrics.default)) {
      problems.push({ path: 'views.default', message: m });
    }
  }
  const taskIds = new Set([...Object.keys(config.metrics.tasks), ...Object.keys(config.views.tasks)]);
  for (const taskId of taskIds) {
    const metrics = config.metrics.tasks[taskId] ?? config.metrics.default;
    const ownViews = config.views.tasks[taskId];
    if (metrics === null || (ownViews === undefined && config.metrics.tasks[taskId] === undefined)) continue;
    const at = ownViews === undefined ? 'views.default' : formatConfigPath(['views', 'tasks', taskId]);
    for (const m of checkViews(ownViews ?? config.views.default, metrics)) {
      problems.push({ path: at, message: `task '${taskId}': ${m}` });
    }
  }
  if (problems.length > 0) throw new ConfigError(file, problems);
  return config;
}

/** A zod issue path as a config author reads it: keys dotted, indexes bracketed. */
function formatConfigPath(path: readonly PropertyKey[]): string {
  return formatJsonPath(path, /^[A-Za-z_$][\w$-]*$/);
}
