import { describe, expect, it } from 'vitest';
import {
  LiveTrialAssembler,
  type LiveTrial,
  type ReadyReason,
} from '../../src/serve/live-trial-assembler.js';
import { fakeSpan } from './fake-span.js';

const config = { settleMs: 100, idleTimeoutMs: 1000, endMarkerAttribute: 'evalstream.trial.end' };
const keyOf = (s: { attributes: { getString(k: string): string | undefined }; traceId: string }) =>
  s.attributes.getString('gen_ai.conversation.id') ?? s.traceId;

/** The one trial of a `due` answer. */
function onlyDue(due: [LiveTrial, ReadyReason][]): LiveTrial {
  expect(due).toHaveLength(1);
  return due[0]![0];
}

describe('LiveTrialAssembler', () => {
  it('forgets every trial, open, handed out or sealed, on clear', () => {
    const asm = new LiveTrialAssembler(config, keyOf);
    asm.add(
      [fakeSpan({ spanId: 'a', name: 'invoke_agent bot', attrs: { 'gen_ai.conversation.id': 't1' } })],
      0,
    );
    asm.add([fakeSpan({ spanId: 'b', attrs: { 'gen_ai.conversation.id': 't2' } })], 0);
    asm.add(
      [fakeSpan({ spanId: 'c', name: 'invoke_agent bot', attrs: { 'gen_ai.conversation.id': 't3' } })],
      0,
    );
    expect(asm.due(100).map(([t]) => t.key)).toEqual(['t1', 't3']);
    asm.seal(['t3']);
    expect([asm.size, asm.openCount, asm.isSealed('t3')]).toEqual([2, 1, true]);
    asm.clear();
    expect([asm.size, asm.openCount, asm.isSealed('t3')]).toEqual([0, 0, false]);
    expect(asm.flush()).toEqual([]);
  });

  it('scores a trial without an end span after the idle timeout', () => {
    const asm = new LiveTrialAssembler(config, keyOf);
    asm.add([fakeSpan({ spanId: 'b', parentSpanId: 'a', attrs: { 'gen_ai.conversation.id': 't1' } })], 0);
    expect(asm.due(50)).toEqual([]);
    const due = asm.due(1000);
    expect(due.map(([t, r]) => [t.key, r])).toEqual([['t1', 'idle-timeout']]);
  });

  it('distinguishes ended, idle-timeout, late-spans and shutdown', () => {
    const asm = new LiveTrialAssembler(config, keyOf);
    asm.add([fakeSpan({ spanId: 'b', parentSpanId: 'a', attrs: { 'gen_ai.conversation.id': 't1' } })], 0);
    asm.add(
      [fakeSpan({ spanId: 'a', name: 'invoke_agent bot', attrs: { 'gen_ai.conversation.id': 't1' } })],
      10,
    );
    asm.add([fakeSpan({ spanId: 'c', attrs: { 'gen_ai.conversation.id': 't2' } })], 10);
    expect(asm.due(50)).toEqual([]);
    const first = asm.due(110);
    expect(first.map(([t, r]) => [t.key, r, t.version])).toEqual([['t1', 'ended', 1]]);
    expect(asm.due(500)).toEqual([]);
    const idle = asm.due(1010);
    expect(idle.map(([t, r]) => [t.key, r])).toEqual([['t2', 'idle-timeout']]);
    // a late span for t1 makes it due again after settling, as version 2
    asm.add([fakeSpan({ spanId: 'd', parentSpanId: 'a', attrs: { 'gen_ai.conversation.id': 't1' } })], 2000);
    expect(asm.due(2050)).toEqual([]);
    const late = asm.due(2100);
    expect(late.map(([t, r]) => [t.key, r, t.version, t.spans.length])).toEqual([['t1', 'late-spans', 2, 3]]);
    asm.add([fakeSpan({ spanId: 'e', attrs: { 'gen_ai.conversation.id': 't3' } })], 3000);
    expect(asm.flush().map(([t, r]) => [t.key, r])).toEqual([['t3', 'shutdown']]);
    expect(asm.openCount).toBe(0);
  });

  it('places interleaved spans of several traces, a sealed one among them, each with its own trace', () => {
    const asm = new LiveTrialAssembler(config, (s) => s.traceId);
    const span = (trace: string, id: string, name = 'chat') => fakeSpan({ traceId: trace, spanId: id, name });
    asm.add([span('t2', 'x', 'invoke_agent b')], 0);
    asm.due(100);
    asm.seal(['t2']);
    const added = asm.add(
      [
        span('t1', 'a', 'invoke_agent a'),
        span('t1', 'b'),
        span('t2', 'y'),
        span('t2', 'z'),
        span('t1', 'c'),
        span('t3', 'd'),
      ],
      200,
    );
    expect(added).toBe(4);
    expect(asm.isSealed('t2')).toBe(true);
    const due = asm.flush().map(([t]) => [t.key, t.spans.map((s) => s.spanId)]);
    expect(due).toEqual([
      ['t1', ['a', 'b', 'c']],
      ['t3', ['d']],
    ]);
  });

  it('ignores re-sent duplicate spans', () => {
    const asm = new LiveTrialAssembler(config, keyOf);
    const span = fakeSpan({ spanId: 'a', name: 'invoke_agent x' });
    expect(asm.add([span, span], 0)).toBe(1);
    asm.due(100);
    expect(asm.add([span], 200)).toBe(0);
    expect(asm.due(10_000)).toEqual([]);
  });

  it('treats a configured end-marker attribute as the end of a trial', () => {
    const asm = new LiveTrialAssembler(config, keyOf);
    asm.add([fakeSpan({ spanId: 'x', parentSpanId: 'p', attrs: { 'evalstream.trial.end': 'true' } })], 0);
    expect(asm.due(100).map(([, r]) => r)).toEqual(['ended']);
  });

  it("releases a scored trial's spans and reads them back from their sources, in order, when late spans come", () => {
    const asm = new LiveTrialAssembler(config, (s) => s.traceId);
    const a = fakeSpan({ traceId: 't1', spanId: 'a', name: 'invoke_agent x' });
    const b = fakeSpan({ traceId: 't1', spanId: 'b', parentSpanId: 'a' });
    const other = fakeSpan({ traceId: 't2', spanId: 'c', parentSpanId: 'z' });
    const dup = fakeSpan({ traceId: 't1', spanId: 'b', parentSpanId: 'a' });
    // each source re-decodes its request: new span objects with the same content
    let reads = 0;
    const copy = (s: ReturnType<typeof fakeSpan>) => ({ ...s });
    const first = () => (reads++, [b, other].map(copy));
    const second = () => (reads++, [dup, a].map(copy));
    asm.add([b, other], 0, first);
    asm.add([dup, a], 5, second); // dup is a re-sent duplicate of b
    const trial = onlyDue(asm.due(200));
    expect(trial.spans.map((s) => s.spanId)).toEqual(['b', 'a']);
    expect(asm.release(trial)).toBe(true);
    expect(asm.releasedCount).toBe(1);
    expect(reads).toBe(0);
    // a re-sent duplicate reads the spans back to check, adds nothing, and the trial is released again
    expect(asm.add([copy(a)], 300, second)).toBe(0);
    expect(reads).toBe(2);
    expect(asm.releasedCount).toBe(1);
    expect(asm.due(300).map(([t]) => t.key)).toEqual([]); // not due again
    // a late span: spans read back in arrival order (other traces and duplicates left out), then the new one
    const late = fakeSpan({ traceId: 't1', spanId: 'd', parentSpanId: 'a' });
    expect(asm.add([late], 400, () => [copy(late)])).toBe(1);
    expect(reads).toBe(4);
    expect(asm.releasedCount).toBe(0);
    const again = asm.due(600).filter(([t]) => t.key === 't1');
    expect(again.map(([t, r]) => [t.key, r, t.spans.map((s) => s.spanId)])).toEqual([
      ['t1', 'late-spans', ['b', 'a', 'd']],
    ]);
  });

  it('keeps the spans of a trial that got spans without a source, or has spans not yet handed out', () => {
    const asm = new LiveTrialAssembler(config, (s) => s.traceId);
    const a = fakeSpan({ traceId: 't1', spanId: 'a', name: 'invoke_agent x' });
    asm.add([a], 0);
    const trial = onlyDue(asm.due(200));
    expect(asm.release(trial)).toBe(false);
    const b = fakeSpan({ traceId: 't2', spanId: 'b', name: 'invoke_agent y' });
    asm.add([b], 0, () => [b]);
    const second = onlyDue(asm.due(200));
    asm.add([fakeSpan({ traceId: 't2', spanId: 'c', parentSpanId: 'b' })], 250, () => []);
    expect(asm.release(second)).toBe(false); // dirty: its new span is not handed out yet
    expect(second.spans.map((s) => s.spanId)).toEqual(['b', 'c']);
  });
});
