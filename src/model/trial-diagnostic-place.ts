import type { TrialDiagnostic } from './trial-diagnostic.js';

/**
 * Where a {@link TrialDiagnostic} points, in one line: the file, `:line` and/or the byte offset,
 * then the field (when there is one).
 *
 * @example
 * trialDiagnosticPlace({ code: 'invalid_utf8', message: '…', file: 'a.json', line: 17, offset: 402, field: 'steps[1].message' });
 * // 'a.json:17 (byte 402): steps[1].message'
 */
export function trialDiagnosticPlace(d: TrialDiagnostic): string {
  const at = d.line !== null ? `:${d.line}` : d.offset !== null ? `: byte ${d.offset}` : '';
  const place = `${d.file}${at}${d.line !== null && d.offset !== null ? ` (byte ${d.offset})` : ''}`;
  return d.field === '' ? place : `${place}: ${d.field}`;
}
