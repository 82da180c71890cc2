import { matchingBlocks } from '../evidence/matching-blocks.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';

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
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    const a = Array.from(x);
    const length = a.length + b.length;
    let matches = 0;
    if (length > 0) for (const [, , size] of matchingBlocks(a, b)) matches += size;
    const ratio = length === 0 ? 1.0 : (2.0 * matches) / length;
    if (ratio >= cutoff) scored.push([ratio, x]);
  }
  scored.sort((p, q) => (p[0] !== q[0] ? q[0] - p[0] : -compareCodePoints(p[1], q[1])));
  return scored.slice(0, Math.max(n, 0)).map((p) => p[1]);
}
