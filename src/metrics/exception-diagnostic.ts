import type { Diagnostic } from '../model/score-record.js';

/**
 * The diagnostic of a metric failure (the SDK's `_exception_diagnostic`): message = the error's text,
 * or its class name when the text is empty; `details.exception_type` = the class name. An error may
 * name its Python-side class with a string `exceptionType` property (e.g. `ValidationError`); else the
 * constructor's name is used. A thrown non-Error is reported as `UnknownException`.
 *
 * @example
 * exceptionDiagnostic(new TypeError(''), 'm');
 * // { severity: 'error', message: 'TypeError', source: 'm', details: { exception_type: 'TypeError' } }
 */
export function exceptionDiagnostic(error: unknown, metricType: string): Diagnostic {
  const type = exceptionTypeName(error);
  const text =
    error instanceof Error ? error.message : error === undefined || error === null ? '' : String(error);
  return { severity: 'error', message: text || type, source: metricType, details: { exception_type: type } };
}

function exceptionTypeName(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const declared = (error as { exceptionType?: unknown }).exceptionType;
    if (typeof declared === 'string' && declared !== '') return declared;
    if (error instanceof Error) {
      const ctor = error.constructor?.name;
      return ctor && ctor !== 'Object' ? ctor : error.name || 'Error';
    }
  }
  return 'UnknownException';
}
