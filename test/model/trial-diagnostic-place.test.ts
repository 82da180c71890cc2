import { describe, expect, it } from 'vitest';
import { trialDiagnosticPlace } from '../../src/model/trial-diagnostic-place.js';

describe('trialDiagnosticPlace', () => {
  const d = {
    code: 'invalid_utf8',
    message: 'm',
    file: 'a.json',
    line: null,
    offset: null,
    field: '',
  } as const;
  it('names file, line and/or byte, then the field when there is one', () => {
    expect(trialDiagnosticPlace({ ...d, line: 17, offset: 402, field: 'steps[1].message' })).toBe(
      'a.json:17 (byte 402): steps[1].message',
    );
    expect(trialDiagnosticPlace({ ...d, offset: 9, field: 'Span.name' })).toBe('a.json: byte 9: Span.name');
    expect(trialDiagnosticPlace({ ...d, line: 3 })).toBe('a.json:3');
    expect(trialDiagnosticPlace(d)).toBe('a.json');
  });
});
