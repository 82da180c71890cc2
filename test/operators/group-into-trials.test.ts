import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { otlpJsonToRequest } from '../../src/evidence/otlp/otlp-json-to-request.js';
import type { OtlpRequestItem } from '../../src/evidence/otlp/otlp-stream-types.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { groupIntoTrials } from '../../src/operators/group-into-trials.js';

/** A request holding one span of trace `trace` (hex digit repeated), with an optional conversation id. */
function request(line: number, trace: string, span: string, conversation?: string): OtlpRequestItem {
  const attributes =
    conversation === undefined
      ? []
      : [{ key: 'gen_ai.conversation.id', value: { stringValue: conversation } }];
  const doc = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: trace.repeat(32),
                spanId: span.repeat(16),
                name: `s${span}`,
                startTimeUnixNano: String(line),
                endTimeUnixNano: String(line + 1),
                attributes,
              },
            ],
          },
        ],
      },
    ],
  };
  return {
    file: 'f.jsonl',
    request: otlpJsonToRequest(doc),
    offset: line * 100,
    line,
    bytesRead: line * 100,
  };
}

const ids = (t: TrialItem): string => `${t.trial.id}:${String(t.trial.metadata['otlp_span_count'])}`;

describe('groupIntoTrials (marbles)', () => {
  const scheduler = (): TestScheduler => new TestScheduler((a, b) => expect(a).toEqual(b));

  it('emits a trial once its traces were idle for the window, the rest on completion', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold('a-b-c-d-|', {
        a: request(1, 'a', '1', 'conv'),
        b: request(2, 'b', '2'),
        c: request(3, 'a', '3', 'conv'),
        d: request(4, 'c', '4'),
      });
      // window 2: trace b (line 2) closes at line 4; conv (last seen line 3) and c wait for the end
      expectObservable(src.pipe(groupIntoTrials({ windowRequests: 2 }), map(ids))).toBe(
        '------b-(ac|)',
        { b: 'b'.repeat(32) + ':1', a: 'conv:2', c: 'c'.repeat(32) + ':1' },
        undefined,
      );
    });
  });

  it('on error, emits what is open first, then passes the error through untouched', () => {
    const boom = new Error('boom');
    scheduler().run(({ cold, expectObservable }) => {
      const src = cold<OtlpRequestItem>(
        'a-b-#',
        { a: request(1, 'a', '1', 'x'), b: request(2, 'b', '2', 'y') },
        boom,
      );
      expectObservable(src.pipe(groupIntoTrials(), map(ids))).toBe('----(xy#)', { x: 'x:1', y: 'y:1' }, boom);
    });
  });

  it('unsubscribing stops the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('a-b-c-d-|', {
        a: request(1, 'a', '1', 'x'),
        b: request(2, 'b', '2', 'y'),
        c: request(3, 'c', '3', 'z'),
        d: request(4, 'd', '4', 'w'),
      });
      expectObservable(src.pipe(groupIntoTrials({ windowRequests: 1 }), map(ids)), '^--!').toBe('--x', {
        x: 'x:1',
      });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });
});
