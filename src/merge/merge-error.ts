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
}
