import { describe, expect, it } from 'vitest';
import { ListAttributes } from '../../../src/evidence/otlp/list-attributes.js';
import type { OtlpSpan } from '../../../src/evidence/otlp/otlp-types.js';
import { SpanForest } from '../../../src/evidence/otlp/span-forest.js';

function span(spanId: string, parentSpanId: string, start: number, traceId = 't1'): OtlpSpan {
  return {
    traceId,
    spanId,
    parentSpanId,
    traceState: '',
    flags: 0,
    name: spanId,
    kind: 1,
    startTimeUnixNano: BigInt(start),
    endTimeUnixNano: BigInt(start + 1),
    attributes: ListAttributes.EMPTY,
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: '' },
    resource: { attributes: ListAttributes.EMPTY, droppedAttributesCount: 0 },
    scope: { name: '', version: '', attributes: ListAttributes.EMPTY, droppedAttributesCount: 0 },
  };
}

const names = (f: SpanForest): string[] => f.roots.map((n) => n.span.spanId);

describe('SpanForest', () => {
  it('links children to parents, sorted by start, whatever the input order', () => {
    const f = new SpanForest([
      span('c2', 'r', 30),
      span('c1', 'r', 10),
      span('r', '', 0),
      span('g', 'c1', 11),
    ]);
    expect(names(f)).toEqual(['r']);
    const r = f.roots[0];
    expect(r?.children.map((n) => n.span.spanId)).toEqual(['c1', 'c2']);
    expect(f.depth(f.nodes.find((n) => n.span.spanId === 'g') as never)).toBe(2);
    expect(f.inStartOrder().map((n) => n.span.spanId)).toEqual(['r', 'c1', 'g', 'c2']);
  });

  it('drops duplicate deliveries (same trace and span id), keeping the first', () => {
    const first = span('a', '', 0);
    const f = new SpanForest([first, span('a', '', 5), span('a', '', 0, 't2')]);
    expect(f.nodes.map((n) => n.span)).toEqual([first, span('a', '', 0, 't2')]);
    expect(f.duplicates).toBe(1);
  });

  it('makes a span whose parent is absent, or itself, a root', () => {
    const f = new SpanForest([span('remote-child', 'not-here', 0), span('self', 'self', 1)]);
    expect(names(f)).toEqual(['remote-child', 'self']);
    expect(f.cyclesBroken).toBe(0);
  });

  it('breaks a parent cycle at the member that started first', () => {
    const f = new SpanForest([
      span('b', 'a', 102),
      span('a', 'b', 100),
      span('x', 'y', 5),
      span('y', 'z', 6),
      span('z', 'x', 7),
    ]);
    expect(names(f).sort()).toEqual(['a', 'x']);
    expect(f.cyclesBroken).toBe(2);
    expect(
      f.hasDescendant(f.roots.find((n) => n.span.spanId === 'x') as never, (n) => n.span.spanId === 'z'),
    ).toBe(true);
  });

  it('keeps traces apart even when span ids collide', () => {
    const f = new SpanForest([span('p', '', 0, 't1'), span('c', 'p', 1, 't2')]);
    expect(names(f)).toEqual(['p', 'c']);
  });
});
