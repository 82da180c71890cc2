import type { OtlpSpan } from './otlp-types.js';
import { sortInPlace } from '../../util/sort-in-place.js';
import { appendAll } from '../../util/append-all.js';

/** A span in a `SpanForest`: its resolved parent (null for a root) and children in start order. */
export interface SpanNode {
  readonly span: OtlpSpan;
  parent: SpanNode | null;
  readonly children: SpanNode[];
  /** Position in input order (after de-duplication). */
  readonly index: number;
}

function byStart(a: SpanNode, b: SpanNode): number {
  const sa = a.span.startTimeUnixNano;
  const sb = b.span.startTimeUnixNano;
  if (sa !== sb) return sa < sb ? -1 : 1;
  const ea = a.span.endTimeUnixNano;
  const eb = b.span.endTimeUnixNano;
  if (ea !== eb) return ea < eb ? -1 : 1;
  return a.index - b.index;
}

/**
 * The parent/child structure of a set of spans (one or several traces), robust to what real exports
 * contain: duplicate deliveries of a span (same trace id + span id: the first is kept, the rest
 * counted in `duplicates`), parents missing from the set (remote or not exported: the span becomes a
 * root), a span that names itself as parent (a root), and parent cycles (broken at the member that
 * started first, which becomes a root).
 *
 * @example
 * const f = new SpanForest(spans);
 * f.roots.map((n) => n.span.name); // ['invoke_agent weather_agent']
 */
export class SpanForest {
  /** Every distinct span in input order. */
  readonly nodes: readonly SpanNode[];
  /** Spans without a parent in the set, in start order. */
  readonly roots: readonly SpanNode[];
  /** How many duplicate span deliveries were dropped. */
  readonly duplicates: number;
  /** How many parent cycles were broken. */
  readonly cyclesBroken: number;

  constructor(spans: Iterable<OtlpSpan>) {
    const list = Array.isArray(spans) ? (spans as readonly OtlpSpan[]) : [...spans];
    const firstTrace = list[0]?.traceId;
    // One trace (the usual trial): span ids alone are the keys.
    let oneTrace = true;
    for (let i = 1; i < list.length && oneTrace; i += 1) {
      oneTrace = (list[i] as OtlpSpan).traceId === firstTrace;
    }
    const keyOf = oneTrace
      ? (_t: string, s: string): string => s
      : (t: string, s: string): string => `${t}/${s}`;
    const byId = new Map<string, SpanNode>();
    const nodes: SpanNode[] = [];
    let duplicates = 0;
    for (const span of list) {
      const key = keyOf(span.traceId, span.spanId);
      if (byId.has(key)) {
        duplicates += 1;
        continue;
      }
      const node: SpanNode = { span, parent: null, children: [], index: nodes.length };
      byId.set(key, node);
      nodes.push(node);
    }
    for (const node of nodes) {
      const p = node.span.parentSpanId;
      if (p === '' || p === node.span.spanId) continue;
      node.parent = byId.get(keyOf(node.span.traceId, p)) ?? null;
    }
    let cycles = 0;
    const state = new Uint8Array(nodes.length); // 0 unvisited, 1 on current path, 2 done
    const path: SpanNode[] = [];
    for (const start of nodes) {
      if (state[start.index] !== 0) continue;
      path.length = 0;
      let cur: SpanNode | null = start;
      while (cur !== null && state[cur.index] === 0) {
        state[cur.index] = 1;
        path.push(cur);
        cur = cur.parent;
      }
      if (cur !== null && state[cur.index] === 1) {
        // cur is on the current path: the path from cur onwards is a cycle.
        const cycle = path.slice(path.indexOf(cur));
        const first = cycle.reduce((a, b) => (byStart(a, b) <= 0 ? a : b));
        first.parent = null;
        cycles += 1;
      }
      for (const n of path) state[n.index] = 2;
    }
    const roots: SpanNode[] = [];
    for (const node of nodes) {
      if (node.parent === null) roots.push(node);
      else node.parent.children.push(node);
    }
    for (const node of nodes) if (node.children.length > 1) sortInPlace(node.children, byStart);
    this.nodes = nodes;
    this.roots = sortInPlace(roots, byStart);
    this.duplicates = duplicates;
    this.cyclesBroken = cycles;
  }

  /** The start order of nodes: start time, then end time, then input position (a total order). */
  static readonly byStart = byStart;

  /** Every node in start order (ties: end time, then input order). */
  inStartOrder(): SpanNode[] {
    return [...this.nodes].sort(byStart);
  }

  /** Depth of a node (0 for a root). */
  depth(node: SpanNode): number {
    let d = 0;
    for (let p = node.parent; p !== null; p = p.parent) d += 1;
    return d;
  }

  /** Whether any descendant of `node` satisfies `test`. */
  hasDescendant(node: SpanNode, test: (n: SpanNode) => boolean): boolean {
    if (node.children.length === 0) return false;
    const stack = [...node.children];
    while (stack.length > 0) {
      const n = stack.pop() as SpanNode;
      if (test(n)) return true;
      appendAll(stack, n.children);
    }
    return false;
  }
}
