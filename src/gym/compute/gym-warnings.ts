import { pyRepr } from '../../pycompat/py-repr.js';

/**
 * The two Gym UserWarnings, with their exact texts, delivered to `emit` at most once per distinct
 * text (Python's default warning filter).
 *
 * @example
 * const w = new GymWarnings((text) => process.stderr.write(`UserWarning: ${text}\n`));
 * w.zeroStandardError(3);
 */
export class GymWarnings {
  private readonly seen = new Set<string>();
  /** Every distinct warning text emitted, in order. */
  readonly texts: string[] = [];

  constructor(private readonly emit: (text: string) => void = () => {}) {}

  warn(text: string): void {
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.texts.push(text);
    this.emit(text);
  }

  /** A confidence interval collapsed because all `n` values are identical. */
  zeroStandardError(n: number): void {
    this.warn(
      `Standard error is 0 (all ${n} values are identical) -- confidence interval collapses to a single point rather than being computed.`,
    );
  }

  /** `k` repeat entries have `missing_count > 0`; the first is (agent, rollout index, missing). */
  unequalCoverage(k: number, agent: string, rolloutIndex: bigint, missing: bigint): void {
    this.warn(
      `${k} repeat(s) are missing rollouts for some tasks (e.g. agent=${pyRepr(agent)}, _ng_rollout_index=${rolloutIndex}, missing_count=${missing}). ` +
        'repeat_level_metrics statistics were computed from unequal sample sizes across repeats and may not be directly comparable, ' +
        'and agent_level_metrics may be biased toward whichever tasks happened to complete. ' +
        'Consider obtaining the missing rollouts before drawing conclusions from these metrics.',
    );
  }
}
