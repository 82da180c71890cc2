import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/mulberry32.js';
import type { CandidateEvidence } from '../../../src/evidence/candidate-evidence.js';
import { EvidenceKeyError } from '../../../src/evidence/evidence-key-error.js';
import { toolCallEfficiency } from '../../../src/metrics/builtin/tool-call-efficiency.js';
import type { JsonObject } from '../../../src/model/json-value.js';
import { atifData, atifFile, harborOtlp, runOnEvidence } from './trajectory-stats.fixtures.js';

const calls = (args: JsonObject[]): JsonObject => ({
  schema_version: 'ATIF-v1.7',
  agent: { name: 'a', version: '1' },
  steps: [
    {
      step_id: 1,
      source: 'agent',
      message: '',
      tool_calls: args.map((a, i) => ({ tool_call_id: `c${i}`, function_name: 'read', arguments: a })),
    },
  ],
});

describe('tool_call_efficiency', () => {
  it('declares the seed example outputs', () => {
    expect(toolCallEfficiency().type).toBe('tool_call_efficiency');
    expect(
      toolCallEfficiency()
        .outputSpec()
        .map((s) => [s.name, s.valueSchema, s.required]),
    ).toEqual([
      ['efficient_tool_use', 'BooleanValue', true],
      ['max_repeated_tool_calls', 'DiscreteScore', true],
    ]);
  });

  it('distinct calls (fast-agent sample: worker + shell) → 1, efficient', async () => {
    expect(
      await runOnEvidence(toolCallEfficiency(), atifFile('fast-agent__harbor_multiagent_v1_7.json')),
    ).toEqual({
      efficient_tool_use: true,
      max_repeated_tool_calls: 1,
    });
  });

  it('no calls (exmp06 router) → 0, efficient', async () => {
    expect(
      await runOnEvidence(toolCallEfficiency(), atifFile('nemo-agent-toolkit__exmp06_atif.json')),
    ).toEqual({
      efficient_tool_use: true,
      max_repeated_tool_calls: 0,
    });
  });

  it('works on OTLP: two identical bash calls → 2; the threshold decides', async () => {
    expect(await runOnEvidence(toolCallEfficiency(), harborOtlp())).toEqual({
      efficient_tool_use: true,
      max_repeated_tool_calls: 2,
    });
    expect(await runOnEvidence(toolCallEfficiency({ maxRepeatedCalls: 1 }), harborOtlp())).toEqual({
      efficient_tool_use: false,
      max_repeated_tool_calls: 2,
    });
  });

  it('arguments compare as JSON with sorted keys; different arguments are different calls', async () => {
    const ev = atifData(
      calls([
        { path: 'a', n: 1 },
        { n: 1, path: 'a' },
        { path: 'b', n: 1 },
        { path: 'a', n: 1 },
      ]),
    );
    expect(await runOnEvidence(toolCallEfficiency(), ev)).toEqual({
      efficient_tool_use: false,
      max_repeated_tool_calls: 3,
    });
  });

  it('sorted keys at every depth: nested objects, arrays of objects, integer-like keys', async () => {
    // JavaScript lists integer-like keys first ('9' before '10'); sorted as strings, '10' < '9'
    const ev = atifData(
      calls([
        { q: { b: [{ y: 1, x: 2 }], a: null }, '9': 'k', '10': 'j' },
        { '10': 'j', '9': 'k', q: { a: null, b: [{ x: 2, y: 1 }] } },
        { q: { a: null, b: [{ x: 2, y: 1 }] }, '10': 'j', '9': 'k' },
        { q: { a: null, b: [{ x: 1, y: 2 }] }, '10': 'j', '9': 'k' },
        { q: { a: null, b: [{ x: 2, y: 1 }] }, '10': 'j', '9': 'K' },
      ]),
    );
    expect(await runOnEvidence(toolCallEfficiency(), ev)).toEqual({
      efficient_tool_use: false,
      max_repeated_tool_calls: 3,
    });
    // calls whose keys are already sorted and calls whose keys are not compare alike
    const sortedFirst = atifData(
      calls([
        { a: 1, b: { c: 2, d: 3 } },
        { b: { d: 3, c: 2 }, a: 1 },
      ]),
    );
    expect(await runOnEvidence(toolCallEfficiency({ maxRepeatedCalls: 1 }), sortedFirst)).toEqual({
      efficient_tool_use: false,
      max_repeated_tool_calls: 2,
    });
  });

  it('counts the same with few and with many calls of one name (compared pairwise, or by sorted text)', async () => {
    const next = mulberry32(5);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    /** The oracle: calls grouped by their arguments' JSON text with keys sorted (two keys here). */
    const text = (a: JsonObject): string => JSON.stringify(Object.fromEntries(Object.entries(a).sort()));
    for (const n of [2, 5, 16, 17, 40]) {
      for (let round = 0; round < 20; round++) {
        const args = Array.from({ length: n }, () =>
          next() < 0.5
            ? { path: pick(['a', 'b', 'c']), n: pick([1, 2]) }
            : { n: pick([1, 2]), path: pick(['a', 'b', 'c']) },
        );
        const counts = new Map<string, number>();
        for (const a of args) counts.set(text(a), (counts.get(text(a)) ?? 0) + 1);
        const expected = Math.max(...counts.values());
        expect(await runOnEvidence(toolCallEfficiency(), atifData(calls(args)))).toEqual({
          efficient_tool_use: expected <= 2,
          max_repeated_tool_calls: expected,
        });
      }
    }
  });

  it('compares arguments that are not plain JSON data by their JSON text (NaN and null alike)', async () => {
    // no trace format yields these; a view handing them out stands in
    const args = [{ x: NaN }, { x: null }, { x: Infinity }, { x: 0 }];
    const view = { normalizedToolCalls: () => args.map((a) => ({ name: 'read', arguments: a })) };
    const ev = { trace: () => Promise.resolve(view) } as unknown as CandidateEvidence;
    expect(await runOnEvidence(toolCallEfficiency(), ev)).toEqual({
      efficient_tool_use: false,
      max_repeated_tool_calls: 3,
    });
  });

  it('fails without a trace; rejects a bad threshold', async () => {
    await expect(runOnEvidence(toolCallEfficiency(), null)).rejects.toBeInstanceOf(EvidenceKeyError);
    expect(() => toolCallEfficiency({ maxRepeatedCalls: 0 })).toThrow(RangeError);
  });
});
