/**
 * Python's `difflib.SequenceMatcher(None, a, b).get_matching_blocks()` (no junk function, with the
 * `autojunk` rule: when `b` has 200+ elements, elements occurring more than `len(b) // 100 + 1` times
 * are "popular" and never start a match). Elements compare with `===` (lines, or characters).
 * Returns `[i, j, size]` triples sorted by `i`, adjacent blocks merged, ending in the sentinel
 * `[a.length, b.length, 0]` — exactly the list difflib returns. Shared by `unifiedDiff` and
 * `closeMatches`.
 *
 * @example
 * matchingBlocks(['a', 'b', 'c'], ['a', 'x', 'c']); // [[0, 0, 1], [2, 2, 1], [3, 3, 0]]
 */
export function matchingBlocks(a: readonly string[], b: readonly string[]): [number, number, number][] {
  const b2j = new Map<string, number[]>();
  b.forEach((item, idx) => {
    const list = b2j.get(item);
    if (list === undefined) b2j.set(item, [idx]);
    else list.push(idx);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [item, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(item);
  }
  const blocks: [number, number, number][] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const x = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    const [i, j, k] = x;
    if (k > 0) {
      blocks.push(x);
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  const out: [number, number, number][] = [];
  let [i1, j1, k1] = [0, 0, 0];
  for (const [i2, j2, k2] of blocks) {
    if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
    else {
      if (k1 > 0) out.push([i1, j1, k1]);
      [i1, j1, k1] = [i2, j2, k2];
    }
  }
  if (k1 > 0) out.push([i1, j1, k1]);
  out.push([a.length, b.length, 0]);
  return out;
}

/** `find_longest_match(alo, ahi, blo, bhi)` without a junk function. */
function longestMatch(
  a: readonly string[],
  b: readonly string[],
  b2j: Map<string, number[]>,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): [number, number, number] {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i] as string) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    j2len = next;
  }
  // No junk function: only difflib's non-junk extension loops can fire (over "popular" neighbours too).
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
    bestsize++;
  }
  return [besti, bestj, bestsize];
}
