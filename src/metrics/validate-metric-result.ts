import type { JsonValue } from '../model/json-value.js';
import type { MetricResult } from '../model/metric.js';
import type { MetricOutputSpec } from '../model/output-spec.js';
import { pyValueRepr } from '../pycompat/py-value-repr.js';
import { checkOutputValue } from './check-output-value.js';

const PYDANTIC_DOCS = 'https://errors.pydantic.dev/2.13/v/';
// Error types that are pydantic's own (they get its documentation link); zod issue codes do not.
const PYDANTIC_TYPES = new Set([
  'missing',
  'extra_forbidden',
  'list_type',
  'model_type',
  'string_type',
  'float_type',
  'float_parsing',
  'int_type',
  'int_parsing',
  'int_parsing_size',
  'int_from_float',
  'finite_number',
  'bool_type',
  'bool_parsing',
]);

interface ShapeIssue {
  loc: string;
  type: string;
  message: string;
  input: unknown;
}

/**
 * Runs the SDK's checks on what `computeScores` returned, in the SDK's order, and returns the result
 * unchanged (coerce-and-discard: values are checked, never replaced). Throws {@link MetricResultError}:
 *
 * 0. not `{outputs: [{name, value}]}` with no extra keys → `ValidationError` (pydantic-style text);
 * 1. `Duplicate metric output names: ['a']` (sorted); 2. `Missing required metric outputs: ['b']`
 * (declaration order; optional outputs may be absent); 3. `Undeclared metric outputs: ['c']` (result
 * order); 4. the first value that fails its kind's lax check → `ValidationError`. `null` always fails.
 * Then (evalstream only) a value that is not JSON data (bigint, Date, undefined inside...) → `ValueError`.
 *
 * @example
 * validateMetricResult({ outputs: [{ name: 'score', value: '0.5' }] }, [continuousScore('score')]); // ok, value stays '0.5'
 */
export function validateMetricResult(result: unknown, specs: readonly MetricOutputSpec[]): MetricResult {
  const issues = shapeIssues(result);
  if (issues.length > 0) {
    throw new MetricResultError(
      'invalid_result',
      'ValidationError',
      formatValidationError('MetricResult', issues),
    );
  }
  const outputs = (result as MetricResult).outputs;
  const returned = outputs.map((o) => o.name);
  const returnedSet = new Set(returned);
  const byName = new Map(specs.map((s) => [s.name, s]));
  const nameChecks = [
    [
      'duplicate_outputs',
      'Duplicate metric output names',
      [...new Set(returned.filter((n, i) => returned.indexOf(n) !== i))].sort(),
    ],
    [
      'missing_required',
      'Missing required metric outputs',
      specs.filter((s) => s.required && !returnedSet.has(s.name)).map((s) => s.name),
    ],
    ['undeclared_outputs', 'Undeclared metric outputs', returned.filter((n) => !byName.has(n))],
  ] as const;
  for (const [code, what, names] of nameChecks) {
    if (names.length > 0) throw new MetricResultError(code, 'ValueError', `${what}: ${pyValueRepr(names)}`);
  }
  for (const output of outputs) {
    const spec = byName.get(output.name) as MetricOutputSpec;
    const check = checkOutputValue(output.value, spec);
    if (!check.ok) {
      const issue = {
        loc: check.loc ?? '',
        type: check.errorType,
        message: check.message,
        input: output.value,
      };
      throw new MetricResultError(
        'invalid_value',
        'ValidationError',
        formatValidationError(spec.valueSchema, [issue]),
      );
    }
  }
  // evalstream's own last check: results are stored as JSON, so a value must be JSON data.
  for (const output of outputs) {
    const bad = nonJsonPart(output.value);
    if (bad !== null) {
      throw new MetricResultError(
        'not_json',
        'ValueError',
        `Metric output ${pyValueRepr(output.name)} is not JSON data: contains a ${bad}`,
      );
    }
  }
  return result as MetricResult;
}

/** The type name of the first non-JSON part of a value (bigint, Date, function, undefined...), or null. */
function nonJsonPart(v: unknown): string | null {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return null;
  if (Array.isArray(v)) {
    for (const x of v) {
      const bad = nonJsonPart(x);
      if (bad !== null) return bad;
    }
    return null;
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const x of Object.values(v as Record<string, unknown>)) {
      const bad = nonJsonPart(x);
      if (bad !== null) return bad;
    }
    return null;
  }
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SHAPE_MESSAGES: Record<string, string> = {
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
  list_type: 'Input should be a valid list',
  string_type: 'Input should be a valid string',
};

function shapeIssues(result: unknown): ShapeIssue[] {
  const issues: ShapeIssue[] = [];
  const add = (loc: string, type: string, input: unknown, message = SHAPE_MESSAGES[type] as string): void => {
    issues.push({ loc, type, message, input });
  };
  const extraKeys = (obj: Record<string, unknown>, at: string, allowed: readonly string[]): void => {
    for (const key of Object.keys(obj))
      if (!allowed.includes(key)) add(`${at}${key}`, 'extra_forbidden', obj[key]);
  };
  const notModel = (name: string) => `Input should be a valid dictionary or instance of ${name}`;
  if (!isPlainObject(result)) {
    add('', 'model_type', result, notModel('MetricResult'));
    return issues;
  }
  if (!('outputs' in result)) add('outputs', 'missing', result);
  else if (!Array.isArray(result.outputs)) add('outputs', 'list_type', result.outputs);
  else {
    result.outputs.forEach((item: unknown, i: number) => {
      const at = `outputs.${i}`;
      if (!isPlainObject(item)) {
        add(at, 'model_type', item, notModel('MetricOutput'));
        return;
      }
      if (!('name' in item)) add(`${at}.name`, 'missing', item);
      else if (typeof item.name !== 'string') add(`${at}.name`, 'string_type', item.name);
      if (!('value' in item) || item.value === undefined) add(`${at}.value`, 'missing', item);
      extraKeys(item, `${at}.`, ['name', 'value']);
    });
  }
  extraKeys(result, '', ['outputs']);
  return issues;
}

function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return isPlainObject(v) ? 'dict' : ((v as object).constructor?.name ?? typeof v);
}

function inputRepr(v: unknown): string {
  const repr = pyValueRepr(v as JsonValue);
  const chars = [...repr];
  return chars.length > 50 ? `${chars.slice(0, 25).join('')}...${chars.slice(-24).join('')}` : repr;
}

/** pydantic's `str(ValidationError)`: title, then per error an optional location line and the message. */
function formatValidationError(title: string, issues: ShapeIssue[]): string {
  const n = issues.length;
  const lines = [`${n} validation error${n === 1 ? '' : 's'} for ${title}`];
  for (const issue of issues) {
    if (issue.loc !== '') lines.push(issue.loc);
    lines.push(
      `  ${issue.message} [type=${issue.type}, input_value=${inputRepr(issue.input)}, input_type=${pyTypeName(issue.input)}]`,
    );
    if (PYDANTIC_TYPES.has(issue.type))
      lines.push(`    For further information visit ${PYDANTIC_DOCS}${issue.type}`);
  }
  return lines.join('\n');
}

/**
 * Why a metric's result was refused (spec §3.3). `exceptionType` is the Python class the SDK raises
 * (`ValueError` for name problems, `ValidationError` for values and shape); it becomes the failed
 * score's `details.exception_type`. `message` is the SDK's text.
 *
 * @example
 * new MetricResultError('missing_required', 'ValueError', "Missing required metric outputs: ['score']");
 */
export class MetricResultError extends Error {
  override readonly name = 'MetricResultError';
  constructor(
    /** `invalid_result` | `duplicate_outputs` | `missing_required` | `undeclared_outputs` | `invalid_value`. */
    readonly code: string,
    readonly exceptionType: 'ValueError' | 'ValidationError',
    message: string,
  ) {
    super(message);
  }
}
