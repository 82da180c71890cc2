/**
 * Spans whose trace or span id is invalid in OTLP (empty, all zero, wrong length) join no trial from
 * files, as `serve` refuses them: they are counted per file with the place of the first one.
 */
import { describe, expect, it } from 'vitest';
import { isValidOtlpId } from '../../../src/evidence/otlp/is-valid-otlp-id.js';
import { otlpJsonToRequest } from '../../../src/evidence/otlp/otlp-json-to-request.js';
import { OtlpTrialGrouper } from '../../../src/evidence/otlp/otlp-trial-grouper.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

function request(line: number, spans: Record<string, unknown>[], file = 'f.jsonl') {
  return {
    file,
    line,
    offset: line * 100,
    bytesRead: line * 100,
    request: otlpJsonToRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
  };
}

describe('isValidOtlpId', () => {
  it('takes 16- and 8-byte lowercase hex ids that are not all zero', () => {
    expect(isValidOtlpId(TRACE, 16)).toBe(true);
    expect(isValidOtlpId('b7ad6b7169203331', 8)).toBe(true);
    for (const bad of ['', '0'.repeat(32), TRACE.slice(2), `${TRACE}00`, 'cf', TRACE.replace('a', 'g')])
      expect(isValidOtlpId(bad, 16), bad).toBe(false);
    for (const bad of ['', '0'.repeat(16), 'b7ad6b71692033', TRACE])
      expect(isValidOtlpId(bad, 8), bad).toBe(false);
  });
});

describe('OtlpTrialGrouper: spans with invalid ids', () => {
  it('leaves them out of every trial and counts them per file, with the first one’s place and id', () => {
    const g = new OtlpTrialGrouper({ trialKeys: [] });
    const trials = [
      ...g.push(
        request(1, [
          { traceId: TRACE, spanId: 'b7ad6b7169203331', name: 'ok' },
          { traceId: TRACE, spanId: '', name: 'no span id' },
        ]),
      ),
      ...g.push(
        request(2, [
          { spanId: 'b7ad6b7169203332', name: 'no trace id' },
          { traceId: 'zz', spanId: 'b7ad6b7169203333', name: 'short trace id' },
          { traceId: '0'.repeat(32), spanId: 'b7ad6b7169203334', name: 'zero trace id' },
          { traceId: TRACE, spanId: 'b7ad6b7169203335', name: 'ok again' },
        ]),
      ),
      ...g.push(request(1, [{ traceId: '', spanId: '', name: 'other file' }], 'g.jsonl')),
      ...g.flush(),
    ];
    expect(trials.map((t) => [t.trial.id, t.trial.metadata['otlp_span_count']])).toEqual([[TRACE, 2]]);
    expect(g.invalidIdSpans()).toEqual([
      { file: 'f.jsonl', count: 4, first: { file: 'f.jsonl', line: 1 }, field: 'spanId' },
      { file: 'g.jsonl', count: 1, first: { file: 'g.jsonl', line: 1 }, field: 'traceId' },
    ]);
  });
});
