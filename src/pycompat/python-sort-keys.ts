import { compareCodePoints } from './compare-code-points.js';

const HIGH_UNITS = /[\ud800-\uffff]/;

/**
 * Sorts object keys in place the way Python's `sort_keys=True` does (by code point; JavaScript's
 * default sort compares UTF-16 units, which differs only when astral characters meet U+E000..U+FFFF).
 *
 * @example
 * pythonSortKeys(['\u{1F600}', '\uFF01']); // ['\uFF01', '\u{1F600}']
 */
export function pythonSortKeys(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (HIGH_UNITS.test(key)) return keys.sort(compareCodePoints);
    if (i > 0 && (keys[i - 1] as string) > key) sorted = false;
  }
  // objects are mostly built in key order already
  return sorted ? keys : keys.sort();
}
