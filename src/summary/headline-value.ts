import type { AggregateScore } from '../model/summary.js';

/**
 * The one number to show for an aggregate: `value` for a scalar (backend-reported) score, else `mean`.
 *
 * @example
 * headlineValue({ ...scalar, value: 0.8, mean: null }); // 0.8
 */
export function headlineValue(aggregate: AggregateScore): number | null {
  return aggregate.score_type === 'scalar' ? aggregate.value : aggregate.mean;
}
