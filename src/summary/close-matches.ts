import { compareCodePoints } from './compare-code-points.js';

/**
 * Python's `difflib.get_close_matches(word, possibilities, n, cutoff)`: the best `n` possibilities
 * whose `SequenceMatcher(None, possibility, word).ratio()` is at least `cutoff`, best first (ties by
 * the possibility itself, descending, as `heapq.nlargest` orders `(score, x)` pairs). Strings are
 * compared by code point; the `autojunk` popularity rule applies to words of 200+ code points.
 *
 * @example
 * closeMatches('gym_reward.rewrad', ['gym_reward.reward', 'view.solved']); // ['gym_reward.reward']
 */
export function closeMatches(word: string, possibilities: readonly string[], n = 3, cutoff = 0.6): string[] {
  const b = Array.from(word);
  const b2j = new Map<string, number[]>();
  b.forEach((ch, j) => {
    const list = b2j.get(ch);
    if (list === undefined) b2j.set(ch, [j]);
    else list.push(j);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [ch, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(ch);
  }
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    const a = Array.from(x);
    const length = a.length + b.length;
    const ratio = length === 0 ? 1.0 : (2.0 * matchingCharacters(a, b, b2j)) / length;
    if (ratio >= cutoff) scored.push([ratio, x]);
  }
  scored.sort((p, q) => (p[0] !== q[0] ? q[0] - p[0] : -compareCodePoints(p[1], q[1])));
  return scored.slice(0, Math.max(n, 0)).map((p) => p[1]);
}

function matchingCharacters(a: string[], b: string[], b2j: Map<string, number[]>): number {
  let total = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (k > 0) {
      total += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  return total;
}

function longestMatch(
  a: string[],
  b: string[],
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
  // No junk function: extend over equal (possibly "popular") neighbours on both sides.
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
