import type { MetricOutputSpec } from '../model/output-spec.js';
import { makeOutputSpec } from './make-output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/**
 * Declares a pass/fail output (`BooleanValue`). It feeds views and pass@k as 0/1 but has no mean of
 * its own in the summary.
 *
 * @example
 * outputSpec: () => [boolean('efficient_tool_use')]
 */
export function boolean(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'boolean', 'BooleanValue', options);
}
