import type { JsonCursor } from '../json/json-cursor.js';
import type { KeyInterner } from '../json/key-interner.js';
import type { PyJson } from '../py-json.js';
import { GYM_KEY } from './gym-keys.js';
import { GymRowError, type GymRowErrorCode } from './gym-row-error.js';
import type { RolloutScratch } from './rollout-scratch.js';
import { VALUE_KIND } from './value-kind.js';

/** How {@link scanRolloutLine} treats a row. */
export interface RolloutScanOptions {
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

/** The bytes of the key `usage`. */
const USAGE = new TextEncoder().encode('usage');

/** Describes a value for a message: `the string "x"`, `the number 1.5`, `null`, `an array`, … */
function describe(v: PyJson): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'bigint') return `the number ${v}`;
  if (Array.isArray(v)) return v.length === 0 ? 'an empty array' : 'an array';
  return 'an object';
}

/** Python truthiness of a JSON value. */
function truthy(v: PyJson): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Reads a numeric-or-not value into `list` under `key`. Returns the kind. */
function readField(
  c: JsonCursor,
  list: RolloutScratch['top'],
  key: number,
  keep: boolean,
  scratch: RolloutScratch,
): number {
  const ch = c.ws();
  let kind: number;
  if (ch === 0x2d || (ch >= 0x30 && ch <= 0x39)) {
    c.readNumber();
    list.set(key, c.numIsInt ? VALUE_KIND.int : VALUE_KIND.float, c.num, c.numIsInt ? c.numBig : null);
    return c.numIsInt ? VALUE_KIND.int : VALUE_KIND.float;
  }
  if (ch === 0x74 || ch === 0x66) {
    c.literal(ch === 0x74 ? 'true' : 'false');
    list.set(key, VALUE_KIND.int, ch === 0x74 ? 1 : 0, null);
    return VALUE_KIND.int;
  }
  if (keep) {
    const v = c.readValue(0);
    scratch.captured.set(key, v);
    kind =
      v === null
        ? VALUE_KIND.null
        : typeof v === 'string'
          ? VALUE_KIND.string
          : Array.isArray(v)
            ? VALUE_KIND.array
            : VALUE_KIND.object;
  } else {
    kind =
      ch === 0x6e
        ? VALUE_KIND.null
        : ch === 0x22
          ? VALUE_KIND.string
          : ch === 0x5b
            ? VALUE_KIND.array
            : VALUE_KIND.object;
    c.skipValue(0);
  }
  list.set(key, kind, NaN, null);
  return kind;
}

function readIndex(c: JsonCursor, field: string): number {
  const ch = c.ws();
  if (ch === 0x2d || (ch >= 0x30 && ch <= 0x39)) {
    const at = c.i;
    c.readNumber();
    if (c.numIsInt && c.numBig === null) return c.num;
    c.i = at;
  }
  const v = c.readValue(0);
  const why = typeof v === 'bigint' ? `${describe(v)}, beyond 15 digits` : describe(v);
  throw new GymRowError('bad_index', field, `"${field}" must be an integer, got ${why}`);
}

/**
 * At a value that must be an object or falsy: true when it is an object with members to read (its `{`
 * consumed), false after an empty object or a falsy value; a truthy non-object is a {@link GymRowError}.
 */
function enterObjectOrFalsy(c: JsonCursor, depth: number, code: GymRowErrorCode, field: string): boolean {
  if (c.ws() === 0x7b) return c.enterObject();
  const v = c.readValue(depth);
  if (truthy(v)) throw new GymRowError(code, field, `"${field}" must be an object, got ${describe(v)}`);
  return false;
}

function readAgentRef(c: JsonCursor, scratch: RolloutScratch): void {
  scratch.agentRefPresent = true;
  scratch.agentNamePresent = false;
  scratch.agentName = null;
  if (!enterObjectOrFalsy(c, 0, 'bad_agent_ref', 'agent_ref')) return;
  do {
    c.keyStart();
    const isName = c.keyIs('name');
    c.colon();
    if (isName) {
      const v = c.ws() === 0x22 ? c.readRepeatedString() : c.readValue(1);
      scratch.agentNamePresent = true;
      if (typeof v === 'string') scratch.agentName = v;
      else if (!truthy(v)) scratch.agentName = null;
      else {
        throw new GymRowError(
          'bad_agent_ref',
          'agent_ref.name',
          `"agent_ref.name" must be a string, got ${describe(v)}`,
        );
      }
    } else c.skipValue(1);
  } while (c.nextMember());
}

function readUsage(c: JsonCursor, keys: KeyInterner, scratch: RolloutScratch): void {
  if (!enterObjectOrFalsy(c, 1, 'bad_usage', 'response.usage')) return;
  let member = 64;
  do {
    c.keyStart();
    const key = c.readKey(keys, member < 127 ? member++ : 127);
    c.colon();
    readField(c, scratch.usage, key, false, scratch);
  } while (c.nextMember());
}

function readResponse(c: JsonCursor, keys: KeyInterner, scratch: RolloutScratch, cut: boolean): void {
  scratch.hasResponse = true;
  scratch.usage.clear();
  if (c.ws() !== 0x7b) {
    const v = c.readValue(0);
    scratch.responseIsObject = false;
    scratch.responseIsNull = v === null;
    if (cut ? truthy(v) : true) {
      const expected = cut ? 'an object or null' : 'an object';
      throw new GymRowError('bad_response', 'response', `"response" must be ${expected}, got ${describe(v)}`);
    }
    return;
  }
  scratch.responseIsObject = true;
  scratch.responseIsNull = false;
  // the common case in one pass: validate the whole object, then read its one "usage" member
  const usageAt = c.skipObjectFindKey(0, USAGE);
  if (usageAt !== -2) {
    if (usageAt >= 0) {
      const after = c.i;
      c.i = usageAt;
      readUsage(c, keys, scratch);
      c.i = after;
    }
    return;
  }
  if (!c.enterObject()) return;
  do {
    c.keyStart();
    const isUsage = c.keyIs('usage');
    c.colon();
    if (isUsage) {
      // A repeated "usage" key: the last one wins.
      scratch.usage.clear();
      readUsage(c, keys, scratch);
    } else c.skipValue(1);
  } while (c.nextMember());
}

/**
 * Scans one rollout row (the bytes between `cursor.i` and `cursor.end`) into `scratch`: the task and
 * rollout indices, `agent_ref.name`, every top-level field and every `response.usage` field with its
 * kind (number/int/bool or not), validating the whole line as strict JSON without building the large
 * values. Throws {@link JsonSyntaxError} for malformed JSON and {@link GymRowError} for rows Gym cannot
 * use (non-object line, non-integer index, bad `agent_ref`/`response`/`usage`).
 *
 * @example
 * cursor.reset(buf, start, end);
 * scanRolloutLine(cursor, keys, scratch, { cut: true });
 */
export function scanRolloutLine(
  c: JsonCursor,
  keys: KeyInterner,
  scratch: RolloutScratch,
  options: RolloutScanOptions,
): void {
  scratch.clear();
  const first = c.ws();
  if (first !== 0x7b) {
    if (first === -1) c.unexpected('a JSON value');
    const v = c.readValue(0);
    if (c.ws() !== -1) c.unexpected('end of line');
    throw new GymRowError('not_an_object', '', `the line is ${describe(v)}, not a JSON object`);
  }
  const capture = options.capture;
  const readAgent = options.agent ?? true;
  if (c.enterObject()) {
    let member = 0;
    do {
      c.keyStart();
      const key = c.readKey(keys, member < 63 ? member++ : 63);
      c.colon();
      if (key === GYM_KEY.task) {
        scratch.task = readIndex(c, '_ng_task_index');
        scratch.hasTask = true;
      } else if (key === GYM_KEY.rollout) {
        scratch.rollout = readIndex(c, '_ng_rollout_index');
        scratch.hasRollout = true;
      } else if (key === GYM_KEY.agentRef && readAgent) {
        readAgentRef(c, scratch);
      } else if (key === GYM_KEY.response) {
        readResponse(c, keys, scratch, options.cut);
      } else if (options.cut && key >= GYM_KEY.firstHeavy && key <= GYM_KEY.lastHeavy) {
        c.skipValue(0);
      } else {
        const seen = scratch.top.indexOf(key) >= 0;
        const keep = key === GYM_KEY.reward || (capture !== undefined && capture.has(key));
        readField(c, scratch.top, key, keep, scratch);
        if (keep && seen) {
          // keep the captured raw value in step with the last occurrence
          const i = scratch.top.indexOf(key);
          const k = i >= 0 ? (scratch.top.kind[i] as number) : VALUE_KIND.null;
          if (k === VALUE_KIND.float || k === VALUE_KIND.int) {
            scratch.captured.delete(key);
          }
        }
      }
    } while (c.nextMember());
  }
  if (c.ws() !== -1) c.unexpected('end of line after the object');
  scratch.hasWhitespace = c.sawWhitespace;
}
