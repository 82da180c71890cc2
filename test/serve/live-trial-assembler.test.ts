import { describe, expect, it } from 'vitest';
import { LiveTrialAssembler } from '../../src/serve/live-trial-assembler.js';
import { fakeSpan } from './fake-span.js';

const config = { settleMs: 100, idleTimeoutMs: 1000, endMarkerAttribute: 'evalstream.trial.end' };
const keyOf = (s: { attributes: { getString(k: string): string | undefined }; traceId: string }) =>
  s.attributes.getString('gen_ai.conversation.id') ?? s.traceId;

describe('LiveTrialAssembler', () => {
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
});
