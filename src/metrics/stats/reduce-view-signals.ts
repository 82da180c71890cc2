import type { SemanticReducer } from '../../model/task.js';
import { pyFloatSum } from '../../pycompat/py-float-sum.js';

/**
 * Reduce one view opportunity's signal values (spec §7.5), as the SDK's `_reduce_semantic_view`:
 * `single` → the first value, `all` → the minimum, `any` → the maximum, `mean` → Python
 * `sum(values)/len(values)`, `weighted_mean` → `sum(v·w)/sum(w)` with null weights read as 1.0 and
 * null (unmeasured) when the weight total is 0. Returns null when any value is non-finite: an
 * opportunity with an unusable or non-finite signal is unmeasured, never partially reduced.
 *
 * @example
 * reduceViewSignals('weighted_mean', [1, 0], [3, null]); // 0.75
 * reduceViewSignals('all', [1, NaN], [null, null]); // null
 */
export function reduceViewSignals(
  reducer: SemanticReducer,
  values: readonly number[],
  weights: readonly (number | null)[],
): number | null {
  if (values.length === 0) return null;
  for (const v of values) {
    if (!Number.isFinite(v)) return null;
  }
  switch (reducer) {
    case 'single':
      return values[0] as number;
    case 'all': {
      let m = values[0] as number;
      for (const v of values) if (v < m) m = v;
      return m;
    }
    case 'any': {
      let m = values[0] as number;
      for (const v of values) if (v > m) m = v;
      return m;
    }
    case 'mean':
      return pyFloatSum(values) / values.length;
    case 'weighted_mean': {
      const w = values.map((_, i) => weights[i] ?? 1.0);
      const denominator = pyFloatSum(w);
      if (denominator === 0) return null;
      return pyFloatSum(values.map((v, i) => v * (w[i] as number))) / denominator;
    }
  }
}
