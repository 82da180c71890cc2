/**
 * Sets `target[key] = value` as an own enumerable data property, also for the key `__proto__` (which
 * plain assignment would take as the object's prototype): objects read from JSON keep every key as data.
 *
 * @example
 * const o: Record<string, number> = {};
 * setOwn(o, '__proto__', 1); // Object.keys(o) → ['__proto__']
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
