import type { MetricOutputSpec } from '../model/output-spec.js';
import { makeOutputSpec } from './make-output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/**
 * Declares a float output (`ContinuousScore`): numbers, booleans and numeric strings pass; the summary
 * averages its finite values.
 *
 * @example
 * outputSpec: () => [continuousScore('score'), continuousScore('format_ok', { required: false })]
 */
export function continuousScore(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'continuous', 'ContinuousScore', options);
}
