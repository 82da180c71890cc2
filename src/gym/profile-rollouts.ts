import { closeSync, openSync, readSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { buildGymFrame, type GymFrame } from './compute/build-gym-frame.js';
import { computeAcrossRepeatMetrics } from './compute/compute-across-repeat-metrics.js';
import { computeRepeatLevelMetrics, type AgentRows } from './compute/compute-repeat-level-metrics.js';
import { describeColumns } from './compute/describe-columns.js';
import { describeKeys } from './compute/describe-keys.js';
import { GymGroupLevels } from './compute/gym-group-levels.js';
import { GymWarnings } from './compute/gym-warnings.js';
import { GymInputError, type GymInputErrorCode } from './gym-input-error.js';
import { rolloutLineError } from './io/rollout-line-error.js';
import { forEachJsonlLine } from './io/for-each-jsonl-line.js';
import { loadRolloutFile } from './io/load-rollout-file.js';
import type { PyJsonObject } from '../pycompat/py-json.js';
import { GymRowError } from './rows/gym-row-error.js';
import { RolloutTable } from './rows/rollout-table.js';
import { readRolloutRow, type RolloutRow } from './rows/read-rollout-row.js';
import { JsonSpans } from '../pycompat/json-spans.js';
import { readPyJson } from '../pycompat/read-py-json.js';
import { siblingPath } from './sibling-path.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';
import { stringifyPyJson } from '../pycompat/stringify-py-json.js';
import { taskRolloutOrder } from './rows/task-rollout-order.js';

/** Options of {@link profileRollouts} (`evalstream gym profile`). */
export interface ProfileRolloutsOptions {
  /** The materialized inputs (`<stem>_materialized_inputs.jsonl`). */
  inputs: string;
  /** The rollouts JSONL; outputs go next to it. */
  rollouts: string;
  /** Profile a partial collection: inputs without a rollout are dropped instead of an error. */
  allowPartialRollouts?: boolean;
  log?: (line: string) => void;
  warn?: (text: string) => void;
}

/** The completion counts `gym eval profile` prints. */
export interface ProfileCompletionSummary {
  expectedRolloutRows: number;
  completedRolloutRows: number;
  completionPct: number;
  totalInputRows: number;
  completeInputRows: number;
  partialInputRows: number;
  missingInputRows: number;
}

/** What {@link profileRollouts} wrote. */
export interface ProfileRolloutsResult {
  rewardProfilingPath: string;
  agentMetricsPath: string;
  repeatLevelMetricsPath: string;
  groupLevelMetrics: PyJsonObject[];
  agentMetrics: PyJsonObject[];
  repeatLevelMetrics: PyJsonObject[];
  summary: ProfileCompletionSummary;
  warnings: string[];
}

interface InputRows {
  task: number[];
  rollout: number[];
  agent: string[];
  line: number[];
  offset: number[];
  length: number[];
}

const keyText = (t: number, r: number): string => `(${t}, ${r})`;

async function readInputs(path: string): Promise<InputRows> {
  const rows: InputRows = { task: [], rollout: [], agent: [], line: [], offset: [], length: [] };
  const spans = new JsonSpans();
  const fail = (
    code: GymInputErrorCode,
    line: number,
    detail: string,
    field?: string,
    column?: number,
  ): never => {
    const prefix = code === 'malformed_json' ? 'Malformed JSON' : 'Bad materialized input';
    throw rolloutLineError({ code, prefix, path, line, detail, field, column });
  };
  await forEachJsonlLine(
    path,
    (buf, s, e, lineNo, offset, valid) => {
      if (s === e || !valid) fail('malformed_json', lineNo, s === e ? 'empty line' : 'invalid UTF-8');
      let row: RolloutRow;
      try {
        row = readRolloutRow(buf.toString('utf8', s, e), { cut: true }, spans);
      } catch (error) {
        if (error instanceof GymRowError) fail(error.code, lineNo, error.message, error.field, error.column);
        throw error;
      }
      const missing =
        row.task === null ? '_ng_task_index' : row.rollout === null ? '_ng_rollout_index' : null;
      if (missing !== null) fail('missing_index', lineNo, `missing "${missing}"`, missing);
      if (!row.agentNamePresent || row.agentName === null) {
        fail(
          'bad_agent_ref',
          lineNo,
          `"agent_ref.name" must be a string (Gym's profile reads row["agent_ref"]["name"])`,
          'agent_ref.name',
        );
      }
      rows.task.push(row.task as number);
      rows.rollout.push(row.rollout as number);
      rows.agent.push(row.agentName as string);
      rows.line.push(lineNo);
      rows.offset.push(offset);
      rows.length.push(e - s);
    },
    { blankLines: true },
  );
  return rows;
}

function readSample(path: string, offset: number, length: number): PyJsonObject {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    const value = readPyJson(buf.toString('utf8', 0, got)) as PyJsonObject;
    delete value['_ng_task_index'];
    delete value['_ng_rollout_index'];
    return value;
  } finally {
    closeSync(fd);
  }
}

/**
 * The position of each (task, rollout) key among the rows `at` of `rows`; a key seen twice is a
 * {@link GymInputError} naming both lines of `file`.
 */
function indexKeys(
  at: Iterable<number>,
  rows: Record<'task' | 'rollout' | 'line', ArrayLike<number>>,
  what: string,
  file: string,
): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const i of at) {
    const k = keyText(rows.task[i] as number, rows.rollout[i] as number);
    const prev = byKey.get(k);
    if (prev !== undefined) {
      throw new GymInputError(
        'duplicate_rollout',
        `Duplicate ${what} row for rollout key ${k}: '${file}' lines ${rows.line[prev]} and ${rows.line[i]}`,
        { file, line: rows.line[i] as number },
      );
    }
    byKey.set(k, i);
  }
  return byKey;
}

/** Gathers the rows `positions` of every column into new arrays. */
function gather(frame: GymFrame, positions: Int32Array): Float64Array[] {
  return frame.columns.map((col) => {
    const out = new Float64Array(positions.length);
    for (let i = 0; i < positions.length; i++) out[i] = col[positions[i] as number] as number;
    return out;
  });
}

/**
 * `gym eval profile`: joins the materialized inputs and the rollouts on (task, rollout) (agents
 * come from the inputs), computes the statistics of §3–§7 with the profile's differences (§14:
 * group entries pool every agent of a task, `sample` is the task's first materialized row, the
 * expected counts come from the inputs, tasks without rollouts are left out) and writes
 * `<stem>_reward_profiling.jsonl`, `<stem>_agent_metrics.json` and `<stem>_repeat_level_metrics.json`
 * next to the rollouts, then logs the completion summary. Duplicate keys, rollouts without inputs and
 * (unless allowed) inputs without rollouts are {@link GymInputError}s.
 *
 * @example
 * await profileRollouts({ inputs: 'r_materialized_inputs.jsonl', rollouts: 'r.jsonl' });
 */
export async function profileRollouts(options: ProfileRolloutsOptions): Promise<ProfileRolloutsResult> {
  const log = options.log ?? (() => {});
  const warnings = new GymWarnings(options.warn ?? (() => {}));
  const inputs = await readInputs(options.inputs);
  const table = new RolloutTable();
  table.files.push(options.rollouts);
  await loadRolloutFile(options.rollouts, 0, table, { cut: false, agent: false, blankLines: 'error' });

  const inputByKey = indexKeys(inputs.task.keys(), inputs, 'materialized input', options.inputs);
  const order = taskRolloutOrder(table.task, table.rollout, table.count);
  const resultByKey = indexKeys(order, table, 'result', options.rollouts);
  const sortKeys = (keys: string[]): string[] =>
    keys
      .map((k) => k.slice(1, -1).split(', ').map(Number) as [number, number])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([t, r]) => keyText(t, r));
  const extra = sortKeys([...resultByKey.keys()].filter((k) => !inputByKey.has(k)));
  if (extra.length > 0) {
    throw new GymInputError(
      'unmatched_rollout',
      'Rollout results contain rows with no matching materialized input rows. ' +
        `Found ${extra.length} extra rollout rows. Extra rollout keys: [${extra.slice(0, 10).join(', ')}]`,
      { file: options.rollouts },
    );
  }
  const missing = sortKeys([...inputByKey.keys()].filter((k) => !resultByKey.has(k)));
  if (missing.length > 0 && !options.allowPartialRollouts) {
    throw new GymInputError(
      'missing_rollout',
      'Materialized input rows and rollout results do not have matching rollout keys. ' +
        `Missing rollout results for ${missing.length} materialized input rows. Missing rollout keys: [${missing.slice(0, 10).join(', ')}].\n\n` +
        'Use --allow-partial-rollouts to profile completed rollouts from a partial collection.',
      { file: options.rollouts },
    );
  }

  // matched rows in (task, rollout) order; every result has an input here
  const rows = Int32Array.from(order);
  const frame = buildGymFrame(table, rows);
  const agentOf = Array.from(
    rows,
    (r) =>
      inputs.agent[
        inputByKey.get(keyText(table.task[r] as number, table.rollout[r] as number)) as number
      ] as string,
  );
  const expectedByTask = new Map<number, number>();
  for (const t of inputs.task) expectedByTask.set(t, (expectedByTask.get(t) ?? 0) + 1);

  let groups: PyJsonObject[] = [];
  const agents: PyJsonObject[] = [];
  let repeat: PyJsonObject[] = [];
  if (frame.n > 0) {
    const intMaxMin = frame.intColumn.every((x) => x);
    const keys = describeKeys(frame.names);
    groups = new GymGroupLevels(table, rows, frame, keys, intMaxMin).materialize((t, row, n) => {
      const first = inputByKey.get(keyText(t, table.rollout[row] as number)) as number;
      return {
        sample: readSample(options.inputs, inputs.offset[first] as number, inputs.length[first] as number),
        expected: expectedByTask.get(t) ?? n,
      };
    });
    const byAgent = new Map<string, number[]>();
    agentOf.forEach((name, i) => {
      const list = byAgent.get(name);
      if (list) list.push(i);
      else byAgent.set(name, [i]);
    });
    const agentRows: AgentRows[] = [...byAgent.keys()]
      .sort(compareCodePoints)
      .map((name) => ({ name, positions: Int32Array.from(byAgent.get(name) as number[]) }));
    const repeatEntries = computeRepeatLevelMetrics(frame, agentRows, warnings, true);
    repeat = repeatEntries.map((e) => e.entry);
    for (const agent of agentRows) {
      const cols = gather(frame, agent.positions);
      const entry = describeColumns(keys, cols, 0, agent.positions.length, intMaxMin);
      entry['agent_ref'] = { name: agent.name };
      const own = repeatEntries.filter((e) => e.agent === agent.name).map((e) => e.entry);
      if (own.length > 0) Object.assign(entry, computeAcrossRepeatMetrics(own, warnings));
      agents.push(entry);
    }
  }

  const rewardProfilingPath = siblingPath(options.rollouts, '_reward_profiling', '.jsonl');
  const agentMetricsPath = siblingPath(options.rollouts, '_agent_metrics', '.json');
  const repeatLevelMetricsPath = siblingPath(options.rollouts, '_repeat_level_metrics', '.json');
  await writeFile(rewardProfilingPath, groups.map((g) => stringifyPyJson(g) + '\n').join(''));
  await writeFile(agentMetricsPath, stringifyPyJson(agents));
  await writeFile(repeatLevelMetricsPath, stringifyPyJson(repeat));

  const completedByTask = new Map<number, number>();
  for (let i = 0; i < frame.n; i++)
    completedByTask.set(frame.task[i] as number, (completedByTask.get(frame.task[i] as number) ?? 0) + 1);
  let complete = 0;
  let partial = 0;
  let none = 0;
  for (const [t, expected] of expectedByTask) {
    const done = completedByTask.get(t) ?? 0;
    if (done === expected) complete++;
    else if (done > 0) partial++;
    else none++;
  }
  const expectedRows = inputs.task.length;
  const summary: ProfileCompletionSummary = {
    expectedRolloutRows: expectedRows,
    completedRolloutRows: frame.n,
    completionPct: expectedRows === 0 ? 100.0 : (100.0 * frame.n) / expectedRows,
    totalInputRows: expectedByTask.size,
    completeInputRows: complete,
    partialInputRows: partial,
    missingInputRows: none,
  };
  log('Profiling outputs:');
  log(
    `Reward profile completion: ${summary.completedRolloutRows}/${summary.expectedRolloutRows} rollout rows (${summary.completionPct.toFixed(2)}%)`,
  );
  log(
    `Input rows: ${summary.totalInputRows} total; ${summary.completeInputRows} complete; ${summary.partialInputRows} partial; ${summary.missingInputRows} without rollouts dropped from output.`,
  );
  log(`Reward profiling outputs: ${rewardProfilingPath}`);
  log(`Agent-level metrics: ${agentMetricsPath}`);
  log(`Repeat-level metrics: ${repeatLevelMetricsPath}`);
  return {
    rewardProfilingPath,
    agentMetricsPath,
    repeatLevelMetricsPath,
    groupLevelMetrics: groups,
    agentMetrics: agents,
    repeatLevelMetrics: repeat,
    summary,
    warnings: warnings.texts,
  };
}
