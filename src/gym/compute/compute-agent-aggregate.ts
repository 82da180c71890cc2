import type { JsonObject } from '../../model/json-value.js';
import { fromPlainJson } from '../../pycompat/from-plain-json.js';
import { GymInputError } from '../gym-input-error.js';
import type { RolloutExtra } from '../io/load-rollout-file.js';
import type { PyJson, PyJsonObject } from '../../pycompat/py-json.js';
import type { RolloutTable } from '../rows/rollout-table.js';
import { addAvgSampleStdDev } from '../stats/add-avg-sample-std-dev.js';
import { computePassMajorityMetrics, PassAtKScoreError } from '../stats/compute-pass-majority-metrics.js';
import { toPlainJson } from '../../pycompat/to-plain-json.js';
import { setOwn } from '../../util/set-own.js';
import { buildGymFrame } from './build-gym-frame.js';
import { computeAcrossRepeatMetrics } from './compute-across-repeat-metrics.js';
import { computeRepeatLevelMetrics } from './compute-repeat-level-metrics.js';
import { describeColumns } from './describe-columns.js';
import { GymGroupLevels } from './gym-group-levels.js';
import { describeKeys } from './describe-keys.js';
import type { GymHooks } from './gym-hooks.js';
import type { GymWarnings } from './gym-warnings.js';

/** One agent's object of `_aggregate_metrics.json`, in Gym's key order. */
export interface GymAgentAggregate {
  agent_ref: { name: string };
  agent_metrics: PyJsonObject;
  key_metrics: PyJsonObject;
  group_level_metrics: PyJsonObject[];
  repeat_level_metrics: PyJsonObject[];
}

/**
 * What `/aggregate_metrics` computes for one agent (`compute_aggregate_metrics`), from the agent's rows
 * of `table` in (task, rollout) order with unique keys: base statistics (§3), the across-repeat keys
 * (§6), custom metrics from the hooks (§9), key metrics, one group entry per task (§4) and the
 * repeat-level entries (§5). Warnings go to `warnings`; hook errors and non-numeric pass@k scores
 * become {@link GymInputError}s.
 *
 * @example
 * const result = await computeAgentAggregate(table, 'math_agent', rows, warnings);
 */
export async function computeAgentAggregate(
  table: RolloutTable,
  agentName: string,
  rows: Int32Array,
  warnings: GymWarnings,
  hooks: GymHooks = {},
): Promise<GymAgentAggregate> {
  return (await agentAggregate(table, agentName, rows, warnings, hooks)).aggregate;
}

/**
 * An agent's aggregate and the source of its `group_level_metrics` when they are built only once read
 * (null when a hook built them): a metrics file writer given it streams them instead.
 */
export interface AgentAggregateParts {
  aggregate: GymAgentAggregate;
  lazyGroups: GymGroupLevels | null;
}

/** {@link computeAgentAggregate} with the source of its group entries ({@link AgentAggregateParts}). */
export async function agentAggregate(
  table: RolloutTable,
  agentName: string,
  rows: Int32Array,
  warnings: GymWarnings,
  hooks: GymHooks,
): Promise<AgentAggregateParts> {
  const frame = buildGymFrame(table, rows);
  const intMaxMin = frame.intColumn.every((x) => x);
  const keys = describeKeys(frame.names);
  const agentMetrics: PyJsonObject = describeColumns(keys, frame.columns, 0, frame.n, intMaxMin);

  const groupLevels = new GymGroupLevels(table, rows, frame, keys, intMaxMin);
  const taskRanges = groupLevels.ranges;
  let groups: PyJsonObject[] | null = null;

  const all = new Int32Array(frame.n);
  for (let i = 0; i < frame.n; i++) all[i] = i;
  const repeat = computeRepeatLevelMetrics(frame, [{ name: 'agent', positions: all }], warnings, false).map(
    (e) => e.entry,
  );
  Object.assign(agentMetrics, computeAcrossRepeatMetrics(repeat, warnings));

  // each task's rollouts' extras, tasks ascending, rollouts in frame order
  const byTask = <T>(pick: (extra: RolloutExtra) => T): T[][] =>
    taskRanges.map(([a, b]) =>
      Array.from(rows.subarray(a, b), (r) => pick((table.extra[r] ?? {}) as RolloutExtra)),
    );
  const custom: PyJsonObject = {};
  if (hooks.passAtK) {
    const answerKey = hooks.passAtK.answerKey;
    const tasks = byTask((extra) => {
      const r: Record<string, PyJson> = {};
      if (extra.reward !== undefined) r['reward'] = extra.reward;
      if (answerKey !== undefined && extra.answer !== undefined) r[answerKey] = extra.answer;
      return r;
    });
    try {
      const result = computePassMajorityMetrics(tasks, { answerKey });
      addAvgSampleStdDev(result.metrics, result.scores, result.scoreNames, result.maxK);
      for (const [k, v] of Object.entries(result.metrics)) setOwn(custom, k, v as PyJson);
    } catch (error) {
      if (!(error instanceof PassAtKScoreError)) throw error;
      const [a] = taskRanges[error.task] as [number, number];
      const row = rows[a + error.position] as number;
      const file = table.files[table.file[row] as number] as string;
      const value = (tasks[error.task]?.[error.position] ?? {})['reward'];
      const what =
        value === undefined
          ? 'no "reward"'
          : `"reward" ${value === null ? 'null' : JSON.stringify(toPlainJson(value))}`;
      throw new GymInputError(
        'bad_score',
        `--pass-at-k needs a numeric "reward" in every rollout of agent '${agentName}'; the rollout in '${file}' at line ${table.line[row]} has ${what} (Gym's compute_pass_majority_metrics would raise TypeError)`,
        { file, line: table.line[row] as number, field: 'reward' },
      );
    }
  }
  if (hooks.computeMetrics) {
    const result = hookObject(
      'computeMetrics',
      await hooks.computeMetrics(byTask((extra) => extra.row ?? {})),
    );
    for (const [k, v] of Object.entries(result)) {
      if (v !== undefined && k !== 'per_task_metrics') setOwn(custom, k, fromPlainJson(v));
    }
    const perTask = result['per_task_metrics'];
    if (Array.isArray(perTask) && perTask.length > 0) {
      const metricsOf = new Map<number, Record<string, unknown>>();
      for (const m of perTask) {
        if (m === null || typeof m !== 'object' || !('_ng_task_index' in m)) {
          throw new GymInputError(
            'bad_hooks',
            'computeMetrics: every per_task_metrics item needs "_ng_task_index"',
          );
        }
        metricsOf.set(Number((m as Record<string, unknown>)['_ng_task_index']), m as Record<string, unknown>);
      }
      groups = groupLevels.materialize();
      for (const g of groups) {
        const m = metricsOf.get(Number(g['_ng_task_index'])) ?? {};
        for (const [k, v] of Object.entries(m))
          if (k !== '_ng_task_index' && v !== undefined) setOwn(g, k, fromPlainJson(v));
      }
    }
  }
  for (const [k, v] of Object.entries(custom)) setOwn(agentMetrics, k, v);

  const keyMetrics: PyJsonObject = {};
  if (hooks.getKeyMetrics) {
    const plain = toPlainJson(agentMetrics) as JsonObject;
    const picked = hookObject('getKeyMetrics', await hooks.getKeyMetrics(plain));
    for (const [k, v] of Object.entries(picked)) {
      if (v === undefined) continue;
      // keep Python's float/int type of values picked unchanged from agent_metrics
      const same = k in agentMetrics && plain[k] === v;
      setOwn(keyMetrics, k, same ? (agentMetrics[k] as PyJson) : fromPlainJson(v));
    }
  } else {
    for (const [k, v] of Object.entries(agentMetrics)) if (k.startsWith('mean/')) setOwn(keyMetrics, k, v);
  }

  const aggregate: GymAgentAggregate = {
    agent_ref: { name: agentName },
    agent_metrics: agentMetrics,
    key_metrics: keyMetrics,
    group_level_metrics: groups ?? [],
    repeat_level_metrics: repeat,
  };
  if (groups !== null) return { aggregate, lazyGroups: null };
  groupLevels.attachTo(aggregate);
  return { aggregate, lazyGroups: groupLevels };
}

/** A hook's result, which must be an object (else a {@link GymInputError}). */
function hookObject(hook: string, result: unknown): Record<string, unknown> {
  if (result === null || typeof result !== 'object' || Array.isArray(result))
    throw new GymInputError('bad_hooks', `${hook} must return an object, got ${JSON.stringify(result)}`);
  return result as Record<string, unknown>;
}
