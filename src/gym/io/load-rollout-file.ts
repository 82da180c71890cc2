import { JsonSpans } from '../../pycompat/json-spans.js';
import type { JsonObject } from '../../model/json-value.js';
import type { PyJson } from '../../pycompat/py-json.js';
import { GymRowError } from '../rows/gym-row-error.js';
import { pyTruthy } from '../../pycompat/py-truthy.js';
import { setOwn } from '../../util/set-own.js';
import type { RolloutTable } from '../rows/rollout-table.js';
import { readRolloutRow, type RolloutRow } from '../rows/read-rollout-row.js';
import { VALUE_KIND } from '../rows/value-kind.js';
import { forEachJsonlLine } from './for-each-jsonl-line.js';
import { rolloutLineError, type RolloutLineErrorParts } from './rollout-line-error.js';

/** Per-row extras kept for hooks: the cut-down row for `computeMetrics`, typed values for pass@k. */
export interface RolloutExtra {
  row?: JsonObject;
  reward?: PyJson | undefined;
  answer?: PyJson | undefined;
}

/** Options of {@link loadRolloutFile}. */
export interface LoadRolloutFileOptions {
  /** Apply the collector's cut (aggregate) rather than use rows as written (profile). */
  cut: boolean;
  /** Read agents from `agent_ref.name` (default true). */
  agent?: boolean;
  /** Keep the cut-down rows for a `computeMetrics` hook. */
  keepRows?: boolean;
  /** Keep the typed `reward` (and this answer key) for the pass@k hook. */
  passAtK?: { answerKey?: string | undefined } | undefined;
  /** Skip blank lines (aggregate, default) or treat them as malformed (profile). */
  blankLines?: 'skip' | 'error';
}

/** Rows read before the columns of a range are sized for the whole range. */
const SAMPLE_ROWS = 64;

const HEAVY = ['responses_create_params', 'ng_agent_observations', 'ng_model_call_capture', 'ng_trajectory'];

/** The collector's cut of a parsed row (heavy keys removed, `response` reduced to a truthy usage). */
function cutDown(row: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(row)) if (k !== 'response' && !HEAVY.includes(k)) setOwn(out, k, v);
  const response = row['response'];
  const usage =
    response !== null && typeof response === 'object' && !Array.isArray(response)
      ? response['usage']
      : undefined;
  if (usage !== undefined && pyTruthy(usage)) out['response'] = { usage };
  return out;
}

/** The top-level value of `key` in the row, typed (ints as bigint); undefined when absent. */
function topValue(row: RolloutRow, key: string): PyJson | undefined {
  const f = row.top.get(key);
  if (f === undefined) return undefined;
  if (f.kind === VALUE_KIND.int) return f.big ?? BigInt(f.value);
  if (f.kind === VALUE_KIND.float) return f.value;
  return f.raw ?? null;
}

/**
 * Reads one rollout JSONL file (or the byte range `[range.start, range.end)` of it, which must start
 * at a line start) into `table` line by line: blank lines skipped (or rejected), each row validated
 * and reduced by {@link readRolloutRow}. Malformed JSON, invalid UTF-8 and rows Gym cannot use become
 * a {@link GymInputError} naming the file, the line (and column) and the field; lines are counted from the start
 * of the range. Returns the number
 * of rows read and of lines seen.
 *
 * @example
 * await loadRolloutFile('rollouts.jsonl', 0, table, { cut: true });
 */
export async function loadRolloutFile(
  path: string,
  fileIndex: number,
  table: RolloutTable,
  options: LoadRolloutFileOptions,
  range: { start: number; end: number } | null = null,
): Promise<{ rows: number; lines: number }> {
  const spans = new JsonSpans();
  const answerKey = options.passAtK?.answerKey;
  const capture = answerKey === undefined ? undefined : new Set([answerKey]);
  const readAgent = options.agent ?? true;
  const blankIsError = options.blankLines === 'error';
  let rows = 0;
  let lines = 0;
  const fail = (
    line: number,
    code: RolloutLineErrorParts['code'],
    prefix: string,
    detail: string,
    field?: string,
    column?: number,
  ): never => {
    throw rolloutLineError({ code, prefix, path, line, detail, column, field });
  };
  lines = await forEachJsonlLine(
    path,
    (buf, s, e, lineNo, fileOffset, validUtf8) => {
      if (s === e) {
        if (blankIsError) fail(lineNo, 'malformed_json', 'Malformed JSON', 'empty line');
        return;
      }
      if (!validUtf8) fail(lineNo, 'malformed_json', 'Malformed JSON', 'invalid UTF-8');
      const text = buf.toString('utf8', s, e);
      let row: RolloutRow;
      try {
        row = readRolloutRow(text, { cut: options.cut, capture, agent: readAgent }, spans);
      } catch (error) {
        if (error instanceof GymRowError) {
          if (error.code === 'malformed_json')
            fail(lineNo, 'malformed_json', 'Malformed JSON', error.message, undefined, error.column);
          fail(lineNo, error.code, 'Bad rollout', error.message, error.field);
        }
        throw error;
      }
      if (row.task === null || row.rollout === null) {
        const name = row.task !== null ? '_ng_rollout_index' : '_ng_task_index';
        fail(
          lineNo,
          'missing_index',
          'Bad rollout',
          `missing "${name}" (every rollout needs "_ng_task_index" and "_ng_rollout_index")`,
          name,
        );
      }
      if (!options.cut && !row.responseIsObject) {
        fail(
          lineNo,
          'bad_response',
          'Bad rollout',
          `missing "response" (Gym's profile reads "response.usage" of every rollout)`,
          'response',
        );
      }
      const agent =
        readAgent && row.agentName !== null && row.agentName !== '' ? table.agentId(row.agentName) : -1;
      const r = table.addRow(row, fileIndex, lineNo, fileOffset, e - s, agent);
      rows++;
      if (rows === SAMPLE_ROWS && range !== null && r === SAMPLE_ROWS - 1) {
        // room for the whole range at the sample's density, so that the columns are not copied
        // again and again as they grow (a row has at least 42 bytes: both indices)
        const bytes = range.end - range.start;
        const perRow = (fileOffset + e - s - range.start) / SAMPLE_ROWS;
        const estimate = Math.ceil(Math.min(bytes / 42, (1.25 * bytes) / perRow));
        table.reserve(
          estimate,
          estimate * Math.ceil(table.statCount / SAMPLE_ROWS),
          estimate * Math.ceil(table.infoCount / SAMPLE_ROWS),
        );
      }
      if (options.keepRows || options.passAtK) {
        const extra: RolloutExtra = {};
        if (options.keepRows) extra.row = cutDown(row.parsed as JsonObject);
        if (options.passAtK) {
          extra.reward = topValue(row, 'reward');
          if (answerKey !== undefined) extra.answer = topValue(row, answerKey);
        }
        table.extra[r] = extra;
      }
    },
    {
      blankLines: blankIsError,
      ...(range === null ? {} : { start: range.start, end: range.end }),
    },
  );
  return { rows, lines };
}
