import type { ZodType } from 'zod';

/** The value kinds of metric outputs (spec §3.1). */
export type OutputKind = 'continuous' | 'discrete' | 'boolean' | 'label' | 'model';

/**
 * A declared metric output (`MetricOutputSpec`). `valueSchema` is the schema class name written to
 * `tasks.jsonl` (`ContinuousScore`, `DiscreteScore`, `BooleanValue`, `Label`, or a custom model name).
 */
export interface MetricOutputSpec {
  readonly name: string;
  readonly description: string | null;
  readonly kind: OutputKind;
  readonly valueSchema: string;
  readonly required: boolean;
  /** Only for `model` outputs: the zod schema the value must satisfy. */
  readonly schema?: ZodType;
}

/** Schema class names of the four built-in kinds, as written in `tasks.jsonl`. */
export const VALUE_SCHEMA_BY_KIND = {
  continuous: 'ContinuousScore',
  discrete: 'DiscreteScore',
  boolean: 'BooleanValue',
  label: 'Label',
} as const;

/** The kind a `value_schema` name stands for: any name other than the four built-ins is a custom model. */
export function kindOfValueSchema(valueSchema: string): OutputKind {
  switch (valueSchema) {
    case 'ContinuousScore':
      return 'continuous';
    case 'DiscreteScore':
      return 'discrete';
    case 'BooleanValue':
      return 'boolean';
    case 'Label':
      return 'label';
    default:
      return 'model';
  }
}
