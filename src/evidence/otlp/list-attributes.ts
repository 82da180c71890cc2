import type { OtlpAnyValue, OtlpAttributes, OtlpKeyValue } from './otlp-types.js';

/**
 * `OtlpAttributes` over an already decoded key/value list (OTLP/JSON and reflection decode paths).
 * The key index is built on first lookup; with duplicate keys the last one wins.
 *
 * @example
 * const a = new ListAttributes([{ key: 'k', value: { type: 'string', value: 'v', byteLength: 1 } }]);
 * a.getString('k'); // 'v'
 */
export class ListAttributes implements OtlpAttributes {
  static readonly EMPTY = new ListAttributes([]);
  readonly #list: readonly OtlpKeyValue[];
  #index: Map<string, OtlpAnyValue> | null = null;

  constructor(list: readonly OtlpKeyValue[]) {
    this.#list = list;
  }

  get size(): number {
    return this.#list.length;
  }

  keys(): string[] {
    return this.#list.map((kv) => kv.key);
  }

  has(key: string): boolean {
    return this.#map().has(key);
  }

  get(key: string): OtlpAnyValue | undefined {
    return this.#map().get(key);
  }

  getString(key: string): string | undefined {
    const v = this.#map().get(key);
    return v?.type === 'string' ? v.value : undefined;
  }

  entries(): OtlpKeyValue[] {
    return [...this.#list];
  }

  mayNest(): boolean {
    return this.#list.some((kv) => kv.value.type === 'array' || kv.value.type === 'kvlist');
  }

  #map(): Map<string, OtlpAnyValue> {
    if (this.#index === null) {
      const m = new Map<string, OtlpAnyValue>();
      for (const kv of this.#list) m.set(kv.key, kv.value);
      this.#index = m;
    }
    return this.#index;
  }
}
