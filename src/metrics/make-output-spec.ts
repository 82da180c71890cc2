import type { ZodType } from 'zod';
import type { MetricOutputSpec, OutputKind } from '../model/output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/**
 * Builds a frozen `MetricOutputSpec`; the shared body of the five factories. Throws, like the SDK,
 * `metric output name must not be empty` for an empty name.
 *
 * @example
 * makeOutputSpec('score', 'continuous', 'ContinuousScore', {}); // { name: 'score', required: true, ... }
 */
export function makeOutputSpec(
  name: string,
  kind: OutputKind,
  valueSchema: string,
  options: OutputSpecOptions,
  schema?: ZodType,
): MetricOutputSpec {
  if (typeof name !== 'string' || name.length === 0) {
    throw new Error('metric output name must not be empty');
  }
  const spec: MetricOutputSpec = {
    name,
    description: options.description ?? null,
    kind,
    valueSchema,
    required: options.required ?? true,
    ...(schema === undefined ? {} : { schema }),
  };
  return Object.freeze(spec);
}
