/**
 * Whether JavaScript puts the key `name` before the other keys of an object (an array index:
 * `Object.keys` lists those first, in ascending order, whatever their written order).
 *
 * @example
 * isArrayIndex('12'); // true
 * isArrayIndex('012'); // false
 */
export function isArrayIndex(name: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(name) && Number(name) < 4294967295;
}
