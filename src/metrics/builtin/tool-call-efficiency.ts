import { requireTrajectory } from '../../evidence/require-trajectory.js';
import type { JsonValue } from '../../model/json-value.js';
import type { NormalizedToolCall } from '../../model/trajectory-view.js';
import type { Metric } from '../../model/metric.js';
import { boolean, discreteScore } from '../output-specs.js';

/** Options of `toolCallEfficiency`. */
export interface ToolCallEfficiencyOptions {
  /** Most times one identical call (same name and arguments) may occur and still be efficient. Default 2. */
  maxRepeatedCalls?: number;
  /** Metric type (summary key prefix). Default `tool_call_efficiency`. */
  type?: string;
}

/**
 * `tool_call_efficiency`: from the trace's tool calls (ATIF or OTLP), `max_repeated_tool_calls` = the
 * largest number of calls sharing one name and argument set (arguments compared as JSON with sorted
 * keys; 0 without calls), and `efficient_tool_use` = that number ≤ `maxRepeatedCalls`. Fails (score
 * `failed`) when the trial has no trace.
 *
 * @example
 * const m = toolCallEfficiency({ maxRepeatedCalls: 1 });
 * // a trace calling shell{command:"ls"} twice → { efficient_tool_use: false, max_repeated_tool_calls: 2 }
 */
export function toolCallEfficiency(options: ToolCallEfficiencyOptions = {}): Metric {
  const limit = options.maxRepeatedCalls ?? 2;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`maxRepeatedCalls must be an integer >= 1, got ${String(limit)}`);
  }
  // declared once per metric; each call hands out a fresh array of the same frozen specs
  const specs = [boolean('efficient_tool_use'), discreteScore('max_repeated_tool_calls')];
  return {
    type: options.type ?? 'tool_call_efficiency',
    outputSpec: () => specs.slice(),
    computeScores: async (input) => {
      const view = await requireTrajectory(input.candidate.evidence);
      const max = maxRepeatedCalls(view.normalizedToolCalls());
      return {
        outputs: [
          { name: 'efficient_tool_use', value: max <= limit },
          { name: 'max_repeated_tool_calls', value: max },
        ],
      };
    },
  };
}

/** The largest number of calls sharing one name and one argument set (compared as canonical JSON). */
function maxRepeatedCalls(calls: readonly NormalizedToolCall[]): number {
  if (calls.length === 0) return 0;
  const byName = new Map<string, NormalizedToolCall[]>();
  for (const call of calls) {
    const same = byName.get(call.name);
    if (same === undefined) byName.set(call.name, [call]);
    else same.push(call);
  }
  let max = 1;
  // arguments are read only for repeated names
  for (const same of byName.values()) if (same.length > max) max = Math.max(max, mostEqualArguments(same));
  return max;
}

/** Above this many calls of one name, arguments are counted by their canonical JSON, not pairwise. */
const PAIRWISE_LIMIT = 16;

/** The size of the largest group of `calls` with equal arguments (as canonical JSON). */
function mostEqualArguments(calls: readonly NormalizedToolCall[]): number {
  const args = calls.map((call) => call.arguments);
  // A few calls of plain JSON data are compared pair by pair, building no text: such values are equal
  // exactly when their canonical JSON is. Others (NaN, undefined, class instances) and many calls are
  // counted by their canonical JSON.
  if (args.length <= PAIRWISE_LIMIT && args.every(isPlainJson)) {
    let max = 1;
    for (let i = 0; i < args.length - max; i++) {
      let n = 1;
      for (let j = i + 1; j < args.length; j++) if (plainJsonEqual(args[i], args[j])) n += 1;
      if (n > max) max = n;
    }
    return max;
  }
  const counts = new Map<string, number>();
  let max = 1;
  for (const value of args) {
    const key = canonicalJson(value);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > max) max = n;
  }
  return max;
}

/** Whether `value` holds only strings, finite numbers, booleans, null, arrays and plain objects. */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (!isPlainJson(value[i])) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k of Object.keys(value)) if (!isPlainJson((value as Record<string, unknown>)[k])) return false;
  return true;
}

/** Whether two {@link isPlainJson} values are equal (object key order aside). */
function plainJsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!plainJsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(b, k)) return false;
    if (!plainJsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * JSON text with every object's keys sorted (by UTF-16 code units, as `Array.prototype.sort`). Most
 * arguments already have their keys in that order, and then `JSON.stringify` (which follows the
 * objects' own key order) gives the same text in one native call.
 */
function canonicalJson(value: JsonValue): string {
  return keysInSortedOrder(value) ? (JSON.stringify(value) ?? 'null') : sortedJson(value);
}

/** Whether every object in `value` lists its keys (in JavaScript's own order) already sorted. */
function keysInSortedOrder(value: JsonValue): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (!keysInSortedOrder(value[i] as JsonValue)) return false;
    return true;
  }
  let previous: string | null = null;
  for (const k of Object.keys(value)) {
    if (previous !== null && !(previous < k)) return false;
    if (!keysInSortedOrder(value[k] as JsonValue)) return false;
    previous = k;
  }
  return true;
}

function sortedJson(value: JsonValue): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out += ',';
      out += sortedJson(value[i] as JsonValue);
    }
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i += 1) {
      const k = keys[i] as string;
      if (i > 0) out += ',';
      out += `${JSON.stringify(k)}:${sortedJson(value[k] as JsonValue)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
