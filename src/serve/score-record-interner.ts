import type { JsonObject, JsonValue } from '../model/json-value.js';
import type { Diagnostic, MetricOutput, ScoreRecord } from '../model/score-record.js';

/** Most distinct values interned per output name (past it, new values are kept as they are). */
const MAX_VALUES_PER_NAME = 4096;
/** Most distinct outputs lists interned. */
const MAX_LISTS = 65536;

const NO_DIAGNOSTICS: Diagnostic[] = Object.freeze([]) as unknown as Diagnostic[];

/**
 * Makes the score records a live server keeps for every trial (for the summary and the bundle
 * written at shutdown) share their repeating parts: an output `{name, value}` with a primitive value
 * seen before is the same frozen object, a list of such outputs seen before is the same frozen list,
 * an empty `diagnostics` is one frozen empty list, and the records of one trial share one `metadata`
 * object when theirs are equal key by key. The records read the same (same keys in the same order,
 * same values, `-0` kept apart from `0`); only fewer objects stay on the heap for the garbage
 * collector to mark again and again (a kept trial is ~50 objects otherwise). The shared parts are
 * frozen, so a writer that tried to change one would fail loudly. The tables are bounded.
 *
 * @example
 * const interner = new ScoreRecordInterner();
 * const kept = interner.trialScores(scores); // equal to `scores`, with shared parts
 */
export class ScoreRecordInterner {
  readonly #outputs = new Map<string, Map<string | number | boolean | null, MetricOutput>>();
  readonly #ids = new Map<MetricOutput, number>();
  readonly #lists = new Map<string, MetricOutput[]>();

  /** The records of one trial, each with shared parts where possible. */
  trialScores(records: readonly ScoreRecord[]): ScoreRecord[] {
    let metadata: JsonObject | null = null;
    return records.map((record) => {
      const sharedMetadata =
        metadata !== null && shallowEqual(metadata, record.metadata) ? metadata : record.metadata;
      metadata ??= record.metadata;
      return {
        ...record,
        outputs: this.#list(record.outputs),
        diagnostics: record.diagnostics.length === 0 ? NO_DIAGNOSTICS : record.diagnostics,
        metadata: sharedMetadata,
      };
    });
  }

  #list(outputs: MetricOutput[]): MetricOutput[] {
    const shared: MetricOutput[] = [];
    let key = '';
    let whole = true;
    for (const output of outputs) {
      const one = this.#output(output);
      shared.push(one);
      const id = this.#ids.get(one);
      if (id === undefined) whole = false;
      else key += `${id},`;
    }
    if (!whole) return shared;
    const known = this.#lists.get(key);
    if (known !== undefined) return known;
    if (this.#lists.size < MAX_LISTS) this.#lists.set(key, Object.freeze(shared) as MetricOutput[]);
    return shared;
  }

  #output(output: MetricOutput): MetricOutput {
    const value = output.value;
    if (!internable(output, value)) return output;
    let byValue = this.#outputs.get(output.name);
    if (byValue === undefined) {
      byValue = new Map();
      this.#outputs.set(output.name, byValue);
    }
    const known = byValue.get(value);
    if (known !== undefined) return known;
    if (byValue.size >= MAX_VALUES_PER_NAME) return output;
    const frozen = Object.freeze({ name: output.name, value }) as MetricOutput;
    byValue.set(value, frozen);
    this.#ids.set(frozen, this.#ids.size);
    return frozen;
  }
}

/** `{name, value}` exactly (in that order), with a primitive value other than `-0`. */
function internable(output: MetricOutput, value: JsonValue): value is string | number | boolean | null {
  if (value !== null && typeof value === 'object') return false;
  if (Object.is(value, -0)) return false;
  const keys = Object.keys(output);
  return keys.length === 2 && keys[0] === 'name' && keys[1] === 'value';
}

function shallowEqual(a: JsonObject, b: JsonObject): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i] as string;
    if (kb[i] !== k || a[k] !== b[k]) return false;
  }
  return true;
}
