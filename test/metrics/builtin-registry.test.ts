import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../src/metrics/builtin-registry.js';
import { toMetricDescriptor } from '../../src/metrics/to-metric-descriptor.js';

describe('builtinRegistry', () => {
  it('builds every built-in with default options under its own name', () => {
    for (const [name, entry] of Object.entries(builtinRegistry)) {
      const metric = entry.create({});
      expect(metric.type).toBe(name);
      expect(toMetricDescriptor(metric).outputs.length).toBeGreaterThan(0);
      expect(entry.summary.length).toBeGreaterThan(10);
    }
  });
  it('passes options through and renames with type', () => {
    expect(builtinRegistry['exact_match']?.create({ type: 'em_ci', caseSensitive: false }).type).toBe(
      'em_ci',
    );
    expect(builtinRegistry['tool_call_efficiency']?.create({ maxRepeatedCalls: 3 }).type).toBe(
      'tool_call_efficiency',
    );
  });
  it('refuses unknown or ill-typed options, also for metrics without their own validation', () => {
    expect(() => builtinRegistry['token_usage']?.create({ typo: 1 })).toThrow(/typo/);
    expect(() => builtinRegistry['tool_call_efficiency']?.create({ maxRepeatedCalls: 0 })).toThrow();
  });
});
