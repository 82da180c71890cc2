/**
 * Makes a definer of an own enumerable property `key` whose value is `compute(source)`, computed when
 * first read. The first read (or an assignment) turns it into a plain writable data property and lets
 * the source go, so spreading, `JSON.stringify`, `structuredClone` and deep equality see plain values
 * and an object kept after the read holds no reference to its source. Every object shares one
 * accessor (no closure per object); the source sits under a non-enumerable symbol, set to
 * `undefined` once let go (not deleted: deleting a property other than the last one added turns the
 * object into a slow dictionary; define + read took ~2× as long). A frozen object keeps its accessor
 * and source.
 *
 * @example
 * const defineText = lazyProperty('output_text', (h: Handle) => h.finalText());
 * const out = {}; defineText(out, handle); // out.output_text is computed when first read
 */
export function lazyProperty<S, V>(
  key: string,
  compute: (source: S) => V,
): (target: object, source: S) => void {
  const SOURCE = Symbol(key);
  const settle = (target: object, value: V): boolean => {
    const plain = { value, writable: true, enumerable: true, configurable: true };
    if (!Reflect.defineProperty(target, key, plain)) return false;
    (target as Record<symbol, unknown>)[SOURCE] = undefined;
    return true;
  };
  const accessor: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: Record<symbol, S>): V {
      const value = compute(this[SOURCE] as S);
      settle(this, value);
      return value;
    },
    set(this: object, value: V): void {
      if (!settle(this, value)) throw new TypeError(`Cannot assign to '${key}' of a frozen object`);
    },
  };
  return (target, source) => {
    Object.defineProperty(target, key, accessor);
    Object.defineProperty(target, SOURCE, { value: source, writable: true, configurable: true });
  };
}
