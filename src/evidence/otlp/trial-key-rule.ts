import { anyValueToJson } from './any-value-to-json.js';
import type { OtlpAnyValue, OtlpResource, OtlpSpan } from './otlp-types.js';

/*
 * The rule naming a trace's trial (and its task) from attributes, shared by the file grouper and
 * `serve`: for the first of the keys that any span (or its resource) carries, the value all spans
 * agree on, or else the one on the shallowest span (ties: earliest start). `KeyNotes` keep what the
 * rule needs as spans arrive, so a trace whose spans agree is resolved without reading them again.
 */

/** An attribute value as a key value: a non-empty string, or a scalar's text; null otherwise. */
export function attributeKeyValue(v: OtlpAnyValue | undefined): string | null {
  if (v === undefined) return null;
  if (v.type === 'string') {
    const s = v.value;
    return s === '' ? null : s;
  }
  const j = anyValueToJson(v);
  if (j === null || typeof j === 'object') return null;
  const s = String(j);
  return s === '' ? null : s;
}

/**
 * A span's own value under `key` (as {@link attributeKeyValue}); a string value is read without a
 * value object.
 */
export function spanKeyValue(span: OtlpSpan, key: string): string | null {
  const attributes = span.attributes;
  const s = attributes.getString(key);
  if (s !== undefined) return s === '' ? null : s;
  return attributeKeyValue(attributes.get(key));
}

/** Depth of each span within its trace (0 for a root; parents outside the set end the walk). */
function depths(spans: readonly OtlpSpan[]): Map<OtlpSpan, number> {
  const byId = new Map<string, OtlpSpan>();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const out = new Map<OtlpSpan, number>();
  for (const s of spans) {
    let d = 0;
    let p = byId.get(s.parentSpanId);
    // bounded walk: a parent cycle cannot loop forever
    while (p !== undefined && p !== s && d < spans.length) {
      d += 1;
      p = byId.get(p.parentSpanId);
    }
    out.set(s, d);
  }
  return out;
}

/**
 * The value of the first key found in a trace's spans; when spans disagree, the one on the shallowest
 * span wins (ties: earliest start), so a sub-agent's own conversation id does not move its spans.
 */
export function resolveKey(spans: readonly OtlpSpan[], keys: readonly string[]): string | null {
  for (const key of keys) {
    // Fast scan: the first value, and whether any span disagrees with it.
    let firstValue: string | null = null;
    let disagree = false;
    const lookup = new ResourceLookup(key);
    for (const span of spans) {
      const v = spanKeyValue(span, key) ?? lookup.valueOf(span.resource);
      if (v === null) continue;
      if (firstValue === null) firstValue = v;
      else if (v !== firstValue) {
        disagree = true;
        break;
      }
    }
    if (firstValue === null) continue;
    if (!disagree) return firstValue;
    // Spans disagree: the value on the shallowest span wins (ties: earliest start).
    const found: [OtlpSpan, string][] = [];
    for (const span of spans) {
      const v = spanKeyValue(span, key) ?? lookup.valueOf(span.resource);
      if (v !== null) found.push([span, v]);
    }
    const depth = depths(spans);
    let best = found[0] as [OtlpSpan, string];
    for (const candidate of found) {
      const d = depth.get(candidate[0]) as number;
      const bd = depth.get(best[0]) as number;
      if (d < bd || (d === bd && candidate[0].startTimeUnixNano < best[0].startTimeUnixNano))
        best = candidate;
    }
    return best[1];
  }
  return null;
}

/**
 * A resource attribute looked up once per resource (spans of one request share one resource: the
 * last one is remembered, others go to a map).
 */
class ResourceLookup {
  readonly #key: string;
  #last: OtlpResource | null = null;
  #lastValue: string | null = null;
  #seen: Map<OtlpResource, string | null> | null = null;

  constructor(key: string) {
    this.#key = key;
  }

  valueOf(r: OtlpResource): string | null {
    if (r === this.#last) return this.#lastValue;
    this.#seen ??= new Map();
    let v = this.#seen.get(r);
    if (v === undefined) {
      v = attributeKeyValue(r.attributes.get(this.#key));
      this.#seen.set(r, v);
    }
    this.#last = r;
    this.#lastValue = v;
    return v;
  }
}

/**
 * Per key, the first value on a trace's spans in arrival order (span attribute, else its resource's)
 * and whether a later span carried another: all that {@link resolveKey} needs unless spans disagree.
 * Taken as each span arrives, while its bytes are still in the CPU's cache (read again after the
 * trace settled, the same lookups miss the cache).
 */
export interface KeyNotes {
  readonly first: (string | null)[];
  readonly disagree: boolean[];
}

/** Takes {@link KeyNotes} for a fixed list of keys; remembers the last resource's value per key. */
export class KeyNoter {
  readonly #keys: readonly string[];
  readonly #resources: (OtlpResource | null)[];
  readonly #resourceValues: (string | null)[];

  constructor(keys: readonly string[]) {
    this.#keys = keys;
    this.#resources = keys.map(() => null);
    this.#resourceValues = keys.map(() => null);
  }

  /** Empty notes for a new trace. */
  start(): KeyNotes {
    return { first: this.#keys.map(() => null), disagree: this.#keys.map(() => false) };
  }

  /** Notes one span (the next in arrival order). */
  note(notes: KeyNotes, span: OtlpSpan): void {
    const keys = this.#keys;
    for (let k = 0; k < keys.length; k += 1) {
      if (notes.disagree[k] === true) continue;
      const key = keys[k] as string;
      const v = spanKeyValue(span, key) ?? this.#resourceValue(k, key, span.resource);
      if (v === null) continue;
      const first = notes.first[k];
      if (first === null || first === undefined) notes.first[k] = v;
      else if (v !== first) notes.disagree[k] = true;
    }
  }

  #resourceValue(k: number, key: string, r: OtlpResource): string | null {
    if (this.#resources[k] === r) return this.#resourceValues[k] as string | null;
    const value = attributeKeyValue(r.attributes.get(key));
    this.#resources[k] = r;
    this.#resourceValues[k] = value;
    return value;
  }
}

/**
 * `resolveKey(spans, keys)` from notes: `parts` are the notes of consecutive runs of `spans` in
 * order (one per trace of a trial), each noting the noter's keys, of which `keys` start at `offset`.
 * `spans` is read only when spans disagree on the key that decides.
 */
export function resolveNotedKey(
  parts: readonly KeyNotes[],
  keys: readonly string[],
  offset: number,
  spans: () => readonly OtlpSpan[],
): string | null {
  for (let k = 0; k < keys.length; k += 1) {
    let first: string | null = null;
    let disagree = false;
    for (const notes of parts) {
      const v = notes.first[offset + k] ?? null;
      if (notes.disagree[offset + k] === true) disagree = true;
      if (v === null) continue;
      if (first === null) first = v;
      else if (v !== first) disagree = true;
    }
    if (first === null) continue;
    return disagree ? resolveKey(spans(), [keys[k] as string]) : first;
  }
  return null;
}
