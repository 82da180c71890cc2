import { mkdirSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import {
  agentAggregate,
  type AgentAggregateParts,
  type GymAgentAggregate,
} from './compute/compute-agent-aggregate.js';
import type { GymHooks } from './compute/gym-hooks.js';
import { GymWarnings } from './compute/gym-warnings.js';
import { GymInputError } from './gym-input-error.js';
import { expandInputGlob } from './io/expand-input-glob.js';
import { loadRolloutFiles, type ParallelScanOptions } from './io/load-rollout-files.js';
import { writeMergedRollouts } from './io/write-merged-rollouts.js';
import { RolloutTable } from './rows/rollout-table.js';
import { siblingPath } from './sibling-path.js';
import { taskRolloutOrder } from './rows/task-rollout-order.js';
import { VALUE_KIND } from './rows/value-kind.js';
import { pyRepr } from '../pycompat/py-repr.js';
import { stringifyPyJson } from '../pycompat/stringify-py-json.js';
import { writeAggregateMetricsFile } from './write-aggregate-metrics-file.js';

/** Options of {@link aggregateRollouts} (`evalstream gym aggregate`). */
export interface AggregateRolloutsOptions {
  /** One glob or several separated by commas. */
  inputGlob: string;
  /** Merged rollouts path; the metrics go to `<stem>_aggregate_metrics.json` next to it. */
  output: string;
  /** Write the merged, sorted rows to `output` (default true). */
  merge?: boolean;
  /** Also read `*_failures.jsonl` / `*_materialized_inputs.jsonl` matched by a glob (default false). */
  includeFailures?: boolean;
  hooks?: GymHooks;
  /** Progress and result lines (Gym's stdout). Default: none. */
  log?: (line: string) => void;
  /** Warnings (Gym's stderr). Default: none. */
  warn?: (text: string) => void;
  /**
   * Threads for reading large inputs, this one included (default: up to 4, from 32 MiB); one of the
   * workers then writes the merged file while this thread computes the statistics.
   */
  parallel?: ParallelScanOptions;
}

/** What {@link aggregateRollouts} did. */
export interface AggregateRolloutsResult {
  files: string[];
  skippedFiles: string[];
  rows: number;
  mergedPath: string | null;
  metricsPath: string | null;
  agents: GymAgentAggregate[];
  /** The reduced rows and their (task, rollout) order, e.g. for a database sink. */
  table: RolloutTable;
  order: Int32Array;
  warnings: string[];
  /**
   * Threads that read ranges of the inputs, this one included (0: read sequentially in this thread;
   * 1: split into ranges, but no worker could read one).
   */
  scanWorkers: number;
  /** Whether a worker thread wrote the merged file (while this thread computed the statistics). */
  mergedInWorker: boolean;
}

const KIND_NAME: Record<number, string> = {
  [VALUE_KIND.string]: 'a string',
  [VALUE_KIND.array]: 'an array',
  [VALUE_KIND.object]: 'an object',
};

/**
 * `gym eval aggregate`, end to end: expand the globs (§12), read every shard line by line into a
 * reduced table, sort by (task, rollout), write the merged file, then compute each agent's
 * aggregate (§1–§9) and write `<stem>_aggregate_metrics.json`. Skips failure/materialized-input
 * files matched by a glob unless asked, rejects rows Gym would choke on with a
 * {@link GymInputError}, and reports duplicate (task, rollout) keys instead of failing with HTTP 500.
 *
 * @example
 * const result = await aggregateRollouts({ inputGlob: 'results/rollouts-*.jsonl', output: 'results/rollouts.jsonl' });
 */
export async function aggregateRollouts(options: AggregateRolloutsOptions): Promise<AggregateRolloutsResult> {
  const log = options.log ?? (() => {});
  const warnings = new GymWarnings(options.warn ?? (() => {}));
  const matched = expandInputGlob(options.inputGlob);
  if (matched.length === 0) {
    throw new GymInputError('no_match', `No shards matched input_glob=${pyRepr(options.inputGlob)}`);
  }
  const files: string[] = [];
  const skipped: string[] = [];
  for (const m of matched) {
    const name = basename(m.path);
    const kind = name.endsWith('_failures.jsonl')
      ? 'failed rollouts'
      : name.endsWith('_materialized_inputs.jsonl')
        ? 'materialized inputs'
        : null;
    if (kind !== null && m.fromGlob && !options.includeFailures) {
      skipped.push(m.path);
      warnings.warn(
        `skipping '${m.path}' matched by '${m.pattern}': it holds ${kind}, not rollouts (Gym would count them); pass --include-failures to read it`,
      );
      continue;
    }
    files.push(m.path);
  }
  if (files.length === 0) {
    throw new GymInputError(
      'no_match',
      `No shards left for input_glob=${pyRepr(options.inputGlob)} after skipping ${skipped.length} failure/materialized-input file(s); pass --include-failures to read them`,
    );
  }
  log(`Aggregating ${files.length} shard(s):`);
  for (const f of files) log(`  - ${f}`);

  const table = new RolloutTable();
  const hooks = options.hooks ?? {};
  for (const f of files) {
    const st = await stat(f).catch(() => null);
    if (st?.isFile() !== true) {
      const why = st === null ? 'no such file' : 'not a file';
      throw new GymInputError('unreadable', `Cannot read shard '${f}': ${why}`, { file: f });
    }
  }
  const merge = options.merge ?? true;
  let order: Int32Array = new Int32Array(0);
  // With worker threads, one of them writes the merged file while this thread appends the rows'
  // values and computes the statistics: it starts as soon as the rows are known. Resolves to whether
  // the worker wrote it (a worker that could not start or died leaves it to this thread).
  let merging: Promise<boolean> | null = null;
  const { threads: scanWorkers, pool } = await loadRolloutFiles(
    files,
    table,
    { cut: true, keepRows: hooks.computeMetrics !== undefined, passAtK: hooks.passAtK },
    options.parallel ?? {},
    merge,
    (workers) => {
      order = taskRolloutOrder(table.task, table.rollout, table.count);
      if (!merge || workers === null) return;
      mkdirSync(dirname(options.output) || '.', { recursive: true });
      merging = workers.merge(0, table, order, options.output);
      merging.catch(() => {});
    },
  );
  try {
    log(`Loaded ${table.count} rollout record(s) from ${files.length} shard(s)`);
    for (const [key, info] of table.nonNumeric) {
      if (!table.fieldNumeric[key]) continue;
      const row = info.firstRow;
      warnings.warn(
        `field "${table.keys.names[key]}" is not a number in ${info.count} row(s) and counts as missing there ` +
          `(first: '${table.files[table.file[row] as number]}' line ${table.line[row]}, ${KIND_NAME[info.firstKind] ?? 'a value'})`,
      );
    }

    await mkdir(dirname(options.output) || '.', { recursive: true });
    // The merged file is written before the statistics (it exists even when they fail, as in Gym).
    if (merge) {
      log(`Merging shards into ${options.output}`);
      const inWorker = merging as Promise<boolean> | null;
      if (inWorker === null) writeMergedRollouts(table, order, options.output);
      else {
        merging = inWorker.then((done) => {
          if (!done) writeMergedRollouts(table, order, options.output);
          return done;
        });
        merging.catch(() => {});
      }
    }

    const result: AggregateRolloutsResult = {
      files,
      skippedFiles: skipped,
      rows: table.count,
      mergedPath: merge ? options.output : null,
      metricsPath: null,
      agents: [],
      table,
      order,
      warnings: warnings.texts,
      scanWorkers,
      mergedInWorker: false,
    };
    try {
      if (table.count > 0) {
        const parts = await computeAgents(table, order, warnings, hooks, log);
        result.agents = parts.map((p) => p.aggregate);
        const metricsPath = siblingPath(options.output, '_aggregate_metrics', '.json');
        writeAggregateMetricsFile(
          metricsPath,
          result.agents,
          parts.map((p) => p.lazyGroups),
        );
        result.metricsPath = metricsPath;
      }
    } catch (error) {
      await merging;
      throw error;
    }
    result.mergedInWorker = (await merging) ?? false;
    log(
      `Finished rollout aggregation! View results at:\nMerged rollouts: ${merge ? options.output : '<not merged>'}\nAggregate metrics: ${result.metricsPath ?? 'None'}`,
    );
    return result;
  } finally {
    await pool?.close();
  }
}

/**
 * Each agent's aggregate (and the source of its lazily built group entries), agents in order of
 * first appearance in `order`, after the duplicate check.
 */
async function computeAgents(
  table: RolloutTable,
  order: Int32Array,
  warnings: GymWarnings,
  hooks: GymHooks,
  log: (line: string) => void,
): Promise<AgentAggregateParts[]> {
  const byAgent = new Map<number, number[]>();
  for (const r of order) {
    const a = table.agent[r] as number;
    if (a < 0) continue;
    const list = byAgent.get(a);
    if (list) list.push(r);
    else byAgent.set(a, [r]);
  }
  for (const [agent, rows] of byAgent) checkDuplicates(table, table.agentNames[agent] as string, rows);
  const agents: AgentAggregateParts[] = [];
  for (const [agent, rows] of byAgent) {
    const name = table.agentNames[agent] as string;
    const parts = await agentAggregate(table, name, Int32Array.from(rows), warnings, hooks);
    agents.push(parts);
    log(
      `\nKey metrics for ${name}:\n${stringifyPyJson(parts.aggregate.key_metrics, { indent: 4, floats: 'repr', ensureAscii: true })}`,
    );
  }
  return agents;
}

/** Throws a {@link GymInputError} listing the first duplicate (task, rollout) keys of one agent. */
function checkDuplicates(table: RolloutTable, agent: string, rows: number[]): void {
  const dups: string[] = [];
  let total = 0;
  let firstKey = '';
  for (let i = 0; i < rows.length;) {
    const r = rows[i] as number;
    let j = i + 1;
    while (
      j < rows.length &&
      table.task[rows[j] as number] === table.task[r] &&
      table.rollout[rows[j] as number] === table.rollout[r]
    )
      j++;
    if (j - i > 1) {
      total++;
      const key = `(${table.task[r]}, ${table.rollout[r]})`;
      if (firstKey === '') firstKey = key;
      if (dups.length < 10) {
        const where = rows
          .slice(i, j)
          .map((x) => `'${table.files[table.file[x] as number]}' line ${table.line[x]}`);
        dups.push(`  ${key}: ${where.join(', ')}`);
      }
    }
    i = j;
  }
  if (total === 0) return;
  throw new GymInputError(
    'duplicate_rollout',
    `Duplicate (task, rollout) rows for agent ${pyRepr(agent)}: ${total} key(s) appear more than once ` +
      `(Gym fails with HTTP 500: Duplicate materialized input row for rollout key ${firstKey}). First duplicates:\n${dups.join('\n')}`,
  );
}
