/**
 * Shards that cannot be merged into one run: overlapping trials, a task described differently, a
 * cut-off or malformed line, an evidence file two shards hold with different bytes. The message names
 * the shards, files, lines and trials.
 *
 * @example
 * throw new MergeError('trial (t1, t1-0) is in shards runs/s1 and runs/s2');
 */
export class MergeError extends Error {
  override readonly name = 'MergeError';

  /** The error naming the trials more than one shard holds (the first 20 of `overlaps`). */
  static overlaps(overlaps: readonly string[]): MergeError {
    const shown = overlaps.slice(0, 20).join('; ');
    const are = overlaps.length === 1 ? ' is' : 's are';
    const more = overlaps.length > 20 ? '; …' : '';
    return new MergeError(`${overlaps.length} trial${are} in more than one shard: ${shown}${more}`);
  }
}
