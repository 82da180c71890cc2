/**
 * Sorts `list` in place by `compare` and returns it. Short lists (the children of a span, the tool
 * spans of a trial) are insertion-sorted, which allocates nothing (`Array.prototype.sort` copies the
 * array first); longer ones use `Array.prototype.sort`. Both are stable.
 *
 * @example
 * sortInPlace([3, 1, 2], (a, b) => a - b); // [1, 2, 3]
 */
export function sortInPlace<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  const n = list.length;
  if (n > 24) return list.sort(compare);
  for (let i = 1; i < n; i += 1) {
    const x = list[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(list[j] as T, x) > 0) {
      list[j + 1] = list[j] as T;
      j -= 1;
    }
    list[j + 1] = x;
  }
  return list;
}
