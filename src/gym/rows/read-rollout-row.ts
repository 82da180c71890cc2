import { JsonSpans } from '../../pycompat/json-spans.js';
import type { PyJson } from '../../pycompat/py-json.js';
import { readPyJson } from '../../pycompat/read-py-json.js';
import { GymRowError, type GymRowErrorCode } from './gym-row-error.js';
import { isArrayIndex } from './is-array-index.js';
import { pyTruthy } from '../../pycompat/py-truthy.js';
import { VALUE_KIND } from './value-kind.js';

/** How {@link readRolloutRow} treats a row. */
export interface RolloutRowOptions {
  /**
   * `true` (aggregate): apply the collector's cut — heavy keys are ignored, a falsy `response` is
   * allowed. `false` (profile): the row is used as written; `response` must be an object.
   */
  cut: boolean;
  /** Top-level keys whose Python values are kept in {@link RowField.raw} when they are not numbers. */
  capture?: ReadonlySet<string> | undefined;
  /**
   * Read `agent_ref.name` (default true). When false, `agent_ref` is an ordinary field (profile
   * rollouts, whose agents come from the materialized inputs).
   */
  agent?: boolean;
}

/** One field of a row: its {@link VALUE_KIND}, its value as a double (NaN when not a number), the exact value of an int beyond 15 digits, and the Python value of a captured non-number. */
export interface RowField {
  kind: number;
  value: number;
  big: bigint | null;
  raw?: PyJson;
  /** Where the value is in the line: `[start, end)`. */
  start: number;
  end: number;
  /** The key's id in the table the row is added to (set by `RolloutTable.addRow`). */
  id?: number;
}

/**
 * What Gym's statistics need from one rollout row. `top` and `usage` are Python dicts: written
 * order, a repeated key at its first position with its last value.
 */
export interface RolloutRow {
  /** `_ng_task_index` (null when missing). */
  task: number | null;
  /** `_ng_rollout_index` (null when missing). */
  rollout: number | null;
  /** Whether `agent_ref.name` was present. */
  agentNamePresent: boolean;
  /** `agent_ref.name` when it is a string (may be empty); null when missing, null or falsy. */
  agentName: string | null;
  /** Whether `response` was an object. */
  responseIsObject: boolean;
  /** Top-level fields (indices, `agent_ref` when read, `response` and cut keys left out). */
  top: Map<string, RowField>;
  /** `response.usage` fields when usage is an object. */
  usage: Map<string, RowField>;
  /** The row as `JSON.parse` built it. */
  parsed: JsonObject;
}

type JsonObject = { [key: string]: unknown };

const HEAVY = new Set([
  'responses_create_params',
  'ng_agent_observations',
  'ng_model_call_capture',
  'ng_trajectory',
]);

/** Describes a value for a message: `the string "x"`, `the number 1.5`, `null`, `an array`, … */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'bigint') return `the number ${v}`;
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  return 'an object';
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Own property `key` of a parsed object (`__proto__` included, which `JSON.parse` makes an own property). */
function own(o: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** The decoded key whose quoted text is `text[start, end)`. */
function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Whether the number literal `text[start, end)` is a float's (has a fraction or an exponent). */
function isFloatLiteral(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  return false;
}

/** Sets `f` from the parsed value `v` and, for a number, its literal (int or float, exact long ints). */
function setField(f: RowField, v: unknown, text: string): void {
  f.big = null;
  if (typeof v === 'number') {
    f.value = v;
    // a value that is not integral was written with a fraction or an exponent: no need to look
    if (!Number.isInteger(v) || isFloatLiteral(text, f.start, f.end)) f.kind = VALUE_KIND.float;
    else {
      f.kind = VALUE_KIND.int;
      // ints of more than 15 digits are not exact as doubles: their exact value is kept too
      const digits = f.end - f.start - (text.charCodeAt(f.start) === 0x2d ? 1 : 0);
      if (digits > 15) f.big = BigInt(text.slice(f.start, f.end));
    }
  } else if (typeof v === 'boolean') {
    f.kind = VALUE_KIND.int;
    f.value = v ? 1 : 0;
  } else {
    f.value = NaN;
    f.kind =
      v === null
        ? VALUE_KIND.null
        : typeof v === 'string'
          ? VALUE_KIND.string
          : Array.isArray(v)
            ? VALUE_KIND.array
            : VALUE_KIND.object;
  }
}

/**
 * The members of the parsed object `o` whose spans are `members`, as a Python dict of fields: written
 * order, a repeated key at its first position with its last value.
 */
function fieldsOf(text: string, o: JsonObject, members: number[]): Map<string, RowField> {
  const fields = new Map<string, RowField>();
  const names = Object.keys(o);
  const n = members.length >> 2;
  if (names.length === n && (n === 0 || !isArrayIndex(names[0] as string))) {
    // no repeated key and no array index: the parsed object lists its keys (and values) in written
    // order, the k-th of them is the k-th member of the text
    const values = Object.values(o);
    for (let k = 0; k < n; k++) {
      const f: RowField = {
        kind: VALUE_KIND.null,
        value: NaN,
        big: null,
        start: members[4 * k + 2] as number,
        end: members[4 * k + 3] as number,
      };
      fields.set(names[k] as string, f);
      setField(f, values[k], text);
    }
    return fields;
  }
  for (let k = 0; k < members.length; k += 4) {
    const key = keyAt(text, members[k] as number, members[k + 1] as number);
    const start = members[k + 2] as number;
    const end = members[k + 3] as number;
    let f = fields.get(key);
    if (f === undefined) {
      f = { kind: VALUE_KIND.null, value: NaN, big: null, start, end };
      fields.set(key, f);
    } else {
      f.start = start;
      f.end = end;
    }
    // every key of the text is an own property of the parsed object (`__proto__` too), holding the
    // last value written
    setField(f, o[key], text);
  }
  return fields;
}

/** The integer index `field` (at most 15 digits) of `row`, read as its field `f`, else a {@link GymRowError}. */
function readIndex(row: JsonObject, f: RowField, text: string, field: string): number {
  if (typeof row[field] === 'number' && f.kind === VALUE_KIND.int && f.big === null) return f.value;
  const v = readPyJson(text.slice(f.start, f.end));
  const why = typeof v === 'bigint' ? `${describe(v)}, beyond 15 digits` : describe(v);
  throw new GymRowError('bad_index', field, `"${field}" must be an integer, got ${why}`);
}

/** A value that must be an object or falsy: true when it is an object; a truthy non-object is an error. */
function objectOrFalsy(v: unknown, code: GymRowErrorCode, field: string): v is JsonObject {
  if (isObject(v)) return true;
  if (pyTruthy(v)) throw new GymRowError(code, field, `"${field}" must be an object, got ${describe(v)}`);
  return false;
}

/**
 * Reads one rollout row (a stripped JSONL line): `JSON.parse` validates it and gives the values;
 * {@link JsonSpans} (`src/pycompat`, which `readPyJson` uses too) gives back what `JSON.parse` drops
 * and Gym's statistics keep: each number's literal (int `1` or float `1.0`, the digits of long ints)
 * and the written order of keys. Throws a {@link GymRowError}: `malformed_json` with `JSON.parse`'s
 * message (and column), or a row Gym cannot use (not an object, a non-integer index, a bad
 * `agent_ref`/`response`/`usage`).
 *
 * @example
 * const row = readRolloutRow('{"_ng_task_index":0,"_ng_rollout_index":1,"reward":1.0}', { cut: true });
 * row.top.get('reward'); // { kind: VALUE_KIND.float, value: 1, big: null }
 */
export function readRolloutRow(
  text: string,
  options: RolloutRowOptions,
  spans = new JsonSpans(),
): RolloutRow {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8's "… in JSON at position N" becomes a column
    const message = (error as Error).message;
    const at = / in JSON at position (\d+)/.exec(message);
    const detail = at === null ? message : message.slice(0, at.index);
    const lower = detail.charAt(0).toLowerCase() + detail.slice(1);
    throw new GymRowError('malformed_json', '', lower, at === null ? undefined : Number(at[1]) + 1);
  }
  if (!isObject(parsed))
    throw new GymRowError('not_an_object', '', `the line is ${describe(parsed)}, not a JSON object`);
  const row = parsed;
  const readAgent = options.agent ?? true;
  const m = spans.members(text, 0, (ks, ke) => keyAt(text, ks, ke) === 'response');
  const responseMembers = spans.nested;
  const top = fieldsOf(text, row, m);
  const taskField = top.get('_ng_task_index');
  const rolloutField = top.get('_ng_rollout_index');
  const result: RolloutRow = {
    task: taskField === undefined ? null : readIndex(row, taskField, text, '_ng_task_index'),
    rollout: rolloutField === undefined ? null : readIndex(row, rolloutField, text, '_ng_rollout_index'),
    agentNamePresent: false,
    agentName: null,
    responseIsObject: false,
    top,
    usage: new Map(),
    parsed: row,
  };
  const keepRaw = (f: RowField | undefined): void => {
    if (f !== undefined && f.kind !== VALUE_KIND.float && f.kind !== VALUE_KIND.int)
      f.raw = readPyJson(text.slice(f.start, f.end));
  };
  keepRaw(top.get('reward'));
  if (options.capture !== undefined) for (const key of options.capture) keepRaw(top.get(key));
  const hasAgentRef = top.has('agent_ref');
  const hasResponse = top.has('response');
  top.delete('_ng_task_index');
  top.delete('_ng_rollout_index');
  top.delete('response');
  if (readAgent) top.delete('agent_ref');
  if (options.cut) for (const key of HEAVY) top.delete(key);
  if (readAgent && hasAgentRef) {
    const ref = own(row, 'agent_ref');
    if (
      objectOrFalsy(ref, 'bad_agent_ref', 'agent_ref') &&
      Object.prototype.hasOwnProperty.call(ref, 'name')
    ) {
      const name = ref['name'];
      result.agentNamePresent = true;
      if (typeof name === 'string') result.agentName = name;
      else if (pyTruthy(name)) {
        throw new GymRowError(
          'bad_agent_ref',
          'agent_ref.name',
          `"agent_ref.name" must be a string, got ${describe(name)}`,
        );
      }
    }
  }
  if (hasResponse) {
    const response = own(row, 'response');
    if (!isObject(response)) {
      if (options.cut ? pyTruthy(response) : true) {
        const expected = options.cut ? 'an object or null' : 'an object';
        throw new GymRowError(
          'bad_response',
          'response',
          `"response" must be ${expected}, got ${describe(response)}`,
        );
      }
    } else {
      result.responseIsObject = true;
      const usage = own(response, 'usage');
      if (objectOrFalsy(usage, 'bad_usage', 'response.usage')) {
        // the spans of the last "response" object, and in it of the last "usage"
        const rm = responseMembers ?? [];
        let k = rm.length - 4;
        while (keyAt(text, rm[k] as number, rm[k + 1] as number) !== 'usage') k -= 4;
        result.usage = fieldsOf(text, usage, spans.members(text, rm[k + 2] as number));
      }
    }
  }
  return result;
}
