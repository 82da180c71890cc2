import { expect } from 'vitest';

/**
 * Asserts two summaries (or any JSON-like values) are equal, numbers to 1e-12 relative (NaN equals
 * NaN, 0 equals -0), arrays in order, objects by their key sets. Reports the first differing path.
 */
export function expectSummariesClose(actual: unknown, expected: unknown): void {
  const problem = diff(actual, expected, '$');
  expect(problem, problem ?? '').toBeNull();
}

function diff(a: unknown, b: unknown, path: string): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) && Number.isNaN(b)) return null;
    if (a === b) return null;
    if (
      Number.isFinite(a) &&
      Number.isFinite(b) &&
      Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b))
    ) {
      return null;
    }
    return `${path}: ${a} !== ${b}`;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: array vs non-array`;
    if (a.length !== b.length) return `${path}: length ${a.length} !== ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join('\u0000') !== kb.join('\u0000')) {
      return `${path}: keys ${JSON.stringify(ka)} !== ${JSON.stringify(kb)}`;
    }
    for (const k of ka) {
      const d = diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d !== null) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path}: ${String(a)} !== ${String(b)}`;
}
