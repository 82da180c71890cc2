import { describe, expect, it } from 'vitest';
import { otlpJsonToRequest } from '../../../src/evidence/otlp/otlp-json-to-request.js';
import type { OTLPTraceHandle } from '../../../src/evidence/otlp/otlp-trace-handle.js';
import type { OtlpRequestItem } from '../../../src/evidence/otlp/otlp-stream-types.js';
import { OtlpTrialGrouper } from '../../../src/evidence/otlp/otlp-trial-grouper.js';
import type { TrialItem } from '../../../src/model/trial-item.js';

let line = 0;

function item(doc: unknown, file = 'f.jsonl'): OtlpRequestItem {
  line += 1;
  return { file, request: otlpJsonToRequest(doc), offset: line * 100, line, bytesRead: line * 100 };
}

/** A request with one span of trace `trace` (a hex digit, repeated). */
const spans = (trace: string): OtlpRequestItem =>
  item({
    resourceSpans: [
      { scopeSpans: [{ spans: [{ traceId: trace.repeat(32), spanId: `${line + 1}`.padStart(16, '0') }] }] },
    ],
  });

/** A logs request with one record per trace (a hex digit, repeated; '' for none), its body the name. */
const logs = (...traces: string[]): OtlpRequestItem =>
  item({
    resourceLogs: [
      {
        scopeLogs: [
          {
            logRecords: traces.map((t, i) => ({
              ...(t === '' ? {} : { traceId: t.repeat(32) }),
              body: { stringValue: `${t}${line + 1}.${i}` },
            })),
          },
        ],
      },
    ],
  });

/** Each trial's id and the bodies of its log records. */
function bodies(trials: TrialItem[]): Record<string, string[]> {
  return Object.fromEntries(
    trials.map((t) => {
      const handle = t.evidence?.traceSync() as OTLPTraceHandle;
      return [t.trial.id, handle.logRecords().map((r) => (r.body.type === 'string' ? r.body.value : '?'))];
    }),
  );
}

describe('OtlpTrialGrouper: log records', () => {
  it('attaches records that come before or among the spans; after the trial left they are counted', () => {
    const g = new OtlpTrialGrouper({ windowRequests: 2, trialKeys: [] });
    const out: TrialItem[] = [];
    line = 0;
    out.push(...g.push(logs('a'))); // line 1: before any span of a
    out.push(...g.push(spans('a'))); // line 2
    out.push(...g.push(logs('a'))); // line 3: keeps a open
    out.push(...g.push(spans('b')));
    out.push(...g.push(spans('b')));
    out.push(...g.push(spans('b'))); // a closed and emitted here
    out.push(...g.push(logs('b', 'a', '', '0'))); // b open; a emitted already; no trace id (twice)
    out.push(...g.flush());
    expect(bodies(out)).toEqual({
      ['a'.repeat(32)]: ['a1.0', 'a3.0'],
      ['b'.repeat(32)]: ['b7.0'],
    });
    expect(g.unattachedLogRecords()).toEqual([{ file: 'f.jsonl', withoutTraceId: 2, withoutSpans: 1 }]);
  });

  it('holds at most maxWaitingLogRecords records without spans; the oldest are counted, per file', () => {
    const g = new OtlpTrialGrouper({ windowRequests: 2, maxWaitingLogRecords: 2, trialKeys: [] });
    line = 0;
    const out = [
      ...g.push(logs('a')),
      ...g.push(
        item({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ traceId: 'b'.repeat(32) }] }] }] }, 'g.jsonl'),
      ),
      ...g.push(logs('c')),
      ...g.push(spans('c')),
      ...g.push(spans('b')),
      ...g.flush(),
    ];
    // a's record was let go for c's; b's waited and attached
    expect(Object.keys(bodies(out))).toEqual(['c'.repeat(32), 'b'.repeat(32)]);
    expect(bodies(out)['c'.repeat(32)]).toEqual(['c3.0']);
    expect(g.unattachedLogRecords()).toEqual([{ file: 'f.jsonl', withoutTraceId: 0, withoutSpans: 1 }]);
  });
});
