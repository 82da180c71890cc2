import type { MetricOutputSpec } from '../model/output-spec.js';
import { makeOutputSpec } from './make-output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/**
 * Declares an integer output (`DiscreteScore`) for counts and ordinal levels.
 *
 * @example
 * outputSpec: () => [discreteScore('max_repeated_tool_calls')]
 */
export function discreteScore(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'discrete', 'DiscreteScore', options);
}
