import type { MetricOutputSpec } from '../model/output-spec.js';
import { makeOutputSpec } from './make-output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/**
 * Declares a category output (`Label`): only strings pass.
 *
 * @example
 * outputSpec: () => [label('failure_mode', { required: false })]
 */
export function label(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'label', 'Label', options);
}
