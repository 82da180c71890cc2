import { JsonSpans } from '../../pycompat/json-spans.js';
import { readPyJson } from '../../pycompat/read-py-json.js';
import type { FieldList } from './field-list.js';
import { GYM_KEY, type GymKeys } from './gym-keys.js';
import { GymRowError, type GymRowErrorCode } from './gym-row-error.js';
import type { RolloutScratch } from './rollout-scratch.js';
import { VALUE_KIND } from './value-kind.js';

/** How {@link readRolloutRow} treats a row. */
export interface RolloutRowOptions {
  /**
   * `true` (aggregate): apply the collector's cut — heavy keys are ignored, a falsy `response` is
   * allowed. `false` (profile): the row is used as written; `response` must be an object.
   */
  cut: boolean;
  /** Top-level key ids whose raw values are kept in `scratch.captured` (e.g. an answer key). */
  capture?: ReadonlySet<number> | undefined;
  /**
   * Read `agent_ref.name` (default true). When false, `agent_ref` is an ordinary field (profile
   * rollouts, whose agents come from the materialized inputs).
   */
  agent?: boolean;
}

type JsonObject = { [key: string]: unknown };

/** Describes a value for a message: `the string "x"`, `the number 1.5`, `null`, `an array`, … */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'bigint') return `the number ${v}`;
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  return 'an object';
}

/** Python truthiness of a JSON value. */
function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The decoded key whose quoted text is `text[start, end)`. */
function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Whether the value starting at `at` is a number literal. */
function isNumberAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c === 0x2d || (c >= 0x30 && c <= 0x39);
}

/** Sets `key` in `list` from the value `text[start, end)`: numbers with their kind, booleans as 0/1 ints. */
function putField(list: FieldList, key: number, text: string, start: number, end: number): number {
  const c = text.charCodeAt(start);
  if (isNumberAt(text, start)) {
    const literal = text.slice(start, end);
    if (/[.eE]/.test(literal)) {
      list.set(key, VALUE_KIND.float, Number(literal), null);
      return VALUE_KIND.float;
    }
    // ints of more than 15 digits are not exact as doubles: their exact value is kept too
    const digits = c === 0x2d ? literal.length - 1 : literal.length;
    list.set(key, VALUE_KIND.int, Number(literal), digits > 15 ? BigInt(literal) : null);
    return VALUE_KIND.int;
  }
  if (c === 0x74 || c === 0x66) {
    list.set(key, VALUE_KIND.int, c === 0x74 ? 1 : 0, null);
    return VALUE_KIND.int;
  }
  const kind =
    c === 0x6e
      ? VALUE_KIND.null
      : c === 0x22
        ? VALUE_KIND.string
        : c === 0x5b
          ? VALUE_KIND.array
          : VALUE_KIND.object;
  list.set(key, kind, NaN, null);
  return kind;
}

/** The integer index `text[start, end)` (at most 15 digits), else a {@link GymRowError}. */
function readIndex(text: string, start: number, end: number, field: string): number {
  const literal = text.slice(start, end);
  const digits = literal.startsWith('-') ? literal.length - 1 : literal.length;
  if (isNumberAt(text, start) && !/[.eE]/.test(literal) && digits <= 15) return Number(literal);
  const v = readPyJson(literal);
  const why = typeof v === 'bigint' ? `${describe(v)}, beyond 15 digits` : describe(v);
  throw new GymRowError('bad_index', field, `"${field}" must be an integer, got ${why}`);
}

/** A value that must be an object or falsy: true when it is an object; a truthy non-object is an error. */
function objectOrFalsy(v: unknown, code: GymRowErrorCode, field: string): v is JsonObject {
  if (isObject(v)) return true;
  if (truthy(v)) throw new GymRowError(code, field, `"${field}" must be an object, got ${describe(v)}`);
  return false;
}

function readAgentRef(value: unknown, scratch: RolloutScratch): void {
  scratch.agentRefPresent = true;
  if (!objectOrFalsy(value, 'bad_agent_ref', 'agent_ref') || !('name' in value)) return;
  const name = value['name'];
  scratch.agentNamePresent = true;
  if (typeof name === 'string') scratch.agentName = name;
  else if (truthy(name)) {
    throw new GymRowError(
      'bad_agent_ref',
      'agent_ref.name',
      `"agent_ref.name" must be a string, got ${describe(name)}`,
    );
  }
}

function readResponse(
  text: string,
  members: number[],
  value: unknown,
  keys: GymKeys,
  spans: JsonSpans,
  scratch: RolloutScratch,
  cut: boolean,
): void {
  scratch.hasResponse = true;
  if (!isObject(value)) {
    scratch.responseIsNull = value === null;
    if (cut ? truthy(value) : true) {
      const expected = cut ? 'an object or null' : 'an object';
      throw new GymRowError(
        'bad_response',
        'response',
        `"response" must be ${expected}, got ${describe(value)}`,
      );
    }
    return;
  }
  scratch.responseIsObject = true;
  if (!objectOrFalsy(value['usage'], 'bad_usage', 'response.usage')) return;
  // the last "usage" member is the one a Python dict keeps
  const m = members;
  let usageAt = -1;
  for (let k = 0; k < m.length; k += 4) {
    if (keyAt(text, m[k] as number, m[k + 1] as number) === 'usage') usageAt = m[k + 2] as number;
  }
  const u = spans.members(text, usageAt);
  for (let k = 0; k < u.length; k += 4) {
    const key = keys.idOf(keyAt(text, u[k] as number, u[k + 1] as number));
    putField(scratch.usage, key, text, u[k + 2] as number, u[k + 3] as number);
  }
}

/**
 * Reads one rollout row (a stripped JSONL line) into `scratch`: the task and rollout indices,
 * `agent_ref.name`, every top-level field and every `response.usage` field with its kind (int, float,
 * boolean as an int, or not a number), the exact digits of long ints, and whether the line has
 * whitespace between tokens. `JSON.parse` validates the line; a repeated key keeps its first position
 * and takes its last value, as in a Python dict. Throws a {@link GymRowError}: `malformed_json` with
 * `JSON.parse`'s message (and column), or a row Gym cannot use (not an object, a non-integer index, a bad
 * `agent_ref`/`response`/`usage`).
 *
 * @example
 * readRolloutRow('{"_ng_task_index":0,"_ng_rollout_index":1,"reward":1.0}', keys, scratch, { cut: true });
 * scratch.top.kind[0] === VALUE_KIND.float; // reward
 */
export function readRolloutRow(
  text: string,
  keys: GymKeys,
  scratch: RolloutScratch,
  options: RolloutRowOptions,
  spans: JsonSpans = new JsonSpans(),
): void {
  scratch.clear();
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch (error) {
    // V8's "… in JSON at position N" becomes a column
    const message = (error as Error).message;
    const at = / in JSON at position (\d+)/.exec(message);
    const detail = at === null ? message : message.slice(0, at.index);
    const lower = detail.charAt(0).toLowerCase() + detail.slice(1);
    throw new GymRowError('malformed_json', '', lower, at === null ? undefined : Number(at[1]) + 1);
  }
  if (!isObject(row))
    throw new GymRowError('not_an_object', '', `the line is ${describe(row)}, not a JSON object`);
  const capture = options.capture;
  const readAgent = options.agent ?? true;
  spans.reset();
  const m = spans.members(text, 0, (keyStart, keyEnd) => keyAt(text, keyStart, keyEnd) === 'response');
  const responseMembers = spans.nested;
  let task = -1;
  let rollout = -1;
  let response = -1;
  for (let k = 0; k < m.length; k += 4) {
    const key = keys.idOf(keyAt(text, m[k] as number, m[k + 1] as number));
    const start = m[k + 2] as number;
    const end = m[k + 3] as number;
    if (key === GYM_KEY.task) task = k;
    else if (key === GYM_KEY.rollout) rollout = k;
    else if (key === GYM_KEY.response) response = k;
    else if (key === GYM_KEY.agentRef && readAgent) continue;
    else if (options.cut && key >= GYM_KEY.firstHeavy && key <= GYM_KEY.lastHeavy) continue;
    else {
      const kind = putField(scratch.top, key, text, start, end);
      if (key === GYM_KEY.reward || (capture !== undefined && capture.has(key))) {
        if (kind === VALUE_KIND.float || kind === VALUE_KIND.int) scratch.captured.delete(key);
        else scratch.captured.set(key, readPyJson(text.slice(start, end)));
      }
    }
  }
  if (task >= 0) {
    scratch.task = readIndex(text, m[task + 2] as number, m[task + 3] as number, '_ng_task_index');
    scratch.hasTask = true;
  }
  if (rollout >= 0) {
    scratch.rollout = readIndex(
      text,
      m[rollout + 2] as number,
      m[rollout + 3] as number,
      '_ng_rollout_index',
    );
    scratch.hasRollout = true;
  }
  if (readAgent && 'agent_ref' in row) readAgentRef(row['agent_ref'], scratch);
  if (response >= 0) {
    // the last "response" is the one a Python dict keeps; its members were read with the row's
    const members = text.charCodeAt(m[response + 2] as number) === 0x7b ? (responseMembers ?? []) : [];
    readResponse(text, members, row['response'], keys, spans, scratch, options.cut);
  }
  scratch.hasWhitespace = spans.sawWhitespace;
}
