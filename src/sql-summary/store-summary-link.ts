import type { BundleSummaryEngine } from '../bundle/bundle-summary-engine.js';
import { declaredValueSchemas } from '../bundle/declared-value-schemas.js';
import { TaskValueFloatness } from '../bundle/task-value-floatness.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { DuckDBSinkOptions } from '../sinks/duckdb/duckdb-sink.js';
import type { Sink } from '../sinks/sink.js';
import { toDuckDB } from '../sinks/to-duckdb.js';
import { appendAll } from '../util/append-all.js';
import { summarizeStoreRun } from './summarize-store-run.js';

/** A store sink and the bundle summary engine that reads its run back: see {@link storeSummaryLink}. */
export interface StoreSummaryLink {
  /** The DuckDB store sink (`toDuckDB`) of the run. */
  sink: Sink<ScoredTrial>;
  /** The summary engine for `toRunBundle`: the summary of the stored run, computed in SQL. */
  engine: BundleSummaryEngine;
}

/**
 * Loads each row of a run once: the store sink writes the scored trials into the DuckDB file, and
 * once it has committed, the summary is computed in SQL from the stored run (`summarizeStoreRun`) on
 * the sink's connection and handed to the bundle sink's `summaryEngine`. Float-ness of integral task
 * values (`1.0`) is learned from the scores as they pass, as the in-memory engine does. When the
 * store is not this run alone — it held rows of the run before, or the sink failed — the engine
 * falls back to `fallback` over the bundle's files.
 *
 * @example
 * const link = storeSummaryLink('runs/r1/evalstream.duckdb', { runId: 'r1' }, duckdbBundleSummaryEngine());
 * buildPipeline({ source, sinks: [toRunBundle('runs/r1', { summaryEngine: link.engine }), link.sink], config });
 */
export function storeSummaryLink(
  file: string,
  options: DuckDBSinkOptions & { runId: string },
  fallback: BundleSummaryEngine,
): StoreSummaryLink {
  const floats = new TaskValueFloatness();
  let settle!: (summary: Summary | null) => void;
  let fail!: (error: unknown) => void;
  const stored = new Promise<Summary | null>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const store = toDuckDB(file, {
    ...options,
    onCommitted: async (connection) => {
      await options.onCommitted?.(connection);
      if (store.runHadRows(options.runId)) settle(null);
      else settle(await summarizeStoreRun(connection, options.runId));
    },
  });
  const sink: Sink<ScoredTrial> = {
    async write(item) {
      const schemas = declaredValueSchemas(item.task);
      for (const score of item.scores) floats.addScore(score, schemas);
      await store.write(item);
    },
    flush: () => store.flush(),
    async shutdown() {
      try {
        await store.shutdown();
      } catch (error) {
        fail(error);
        throw error;
      } finally {
        settle(null);
      }
    },
  };
  const engine: BundleSummaryEngine = async (input) => {
    const summary = await stored;
    if (summary === null) return fallback(input);
    appendAll(summary.scores.scores, input.extraScores);
    return { summary, isFloat: floats.lookupFor(summary.task_metric_values), runId: options.runId };
  };
  return { sink, engine };
}
