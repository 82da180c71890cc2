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

const BUILTIN_KINDS: Readonly<Record<string, OutputKind>> = {
  ContinuousScore: 'continuous',
  DiscreteScore: 'discrete',
  BooleanValue: 'boolean',
  Label: 'label',
};

/** The kind a `value_schema` name stands for: any name other than the four built-ins is a custom model. */
export function kindOfValueSchema(valueSchema: string): OutputKind {
  return Object.hasOwn(BUILTIN_KINDS, valueSchema) ? (BUILTIN_KINDS[valueSchema] as OutputKind) : 'model';
}
