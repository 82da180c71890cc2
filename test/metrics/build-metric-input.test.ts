import { describe, expect, it } from 'vitest';
import { buildMetricInput } from '../../src/metrics/build-metric-input.js';
import type { CandidateEvidence } from '../../src/evidence/candidate-evidence.js';
import { makeTask, makeTrialItem, NO_MEASUREMENTS } from './make-trial-item.js';

describe('buildMetricInput (spec §3.5)', () => {
  const task = makeTask({
    id: 'A',
    intent: 'grade it',
    inputs: { instruction: 'do it' },
    reference: { expected: '42' },
    metadata: { suite: 's' },
  });

  it('fills row.data with reference, inputs, task and trial (full measurements)', () => {
    const item = makeTrialItem({
      id: 'a1',
      status: 'partial',
      error: { type: 'TimeoutError', message: 'slow', traceback: null, occurred_at: null },
      measurements: { ...NO_MEASUREMENTS, total_tokens: 0 },
      metadata: { k: 1 },
    });
    const input = buildMetricInput(item, task, 4);
    expect(input.row).toEqual({
      row_index: 4,
      data: {
        reference: { expected: '42' },
        inputs: { instruction: 'do it' },
        task: { id: 'A', intent: 'grade it', metadata: { suite: 's' } },
        trial: {
          id: 'a1',
          task_id: 'A',
          status: 'partial',
          error: { type: 'TimeoutError', message: 'slow', traceback: null, occurred_at: null },
          measurements: { ...NO_MEASUREMENTS, total_tokens: 0 },
          metadata: { k: 1 },
        },
      },
    });
    expect(Object.keys(input.row.data.trial.measurements)).toHaveLength(7);
  });

  it('overlays output metadata on trial metadata (output wins) and passes evidence with an output', () => {
    const evidence = { marker: true } as unknown as CandidateEvidence;
    const item = {
      ...makeTrialItem({
        metadata: { a: 1, b: 1 },
        output: { output_text: 'hi', response: { r: 1 }, metadata: { b: 2, c: 3 } },
      }),
      evidence,
    };
    expect(buildMetricInput(item, task, 0).candidate).toEqual({
      output_text: 'hi',
      response: { r: 1 },
      trajectory: null,
      evidence,
      metadata: { a: 1, b: 2, c: 3 },
    });
  });

  it('reads the output text when the metric first reads it; the candidate stays plain data', () => {
    let reads = 0;
    const output = { response: null, metadata: {} } as unknown as { output_text: string | null };
    Object.defineProperty(output, 'output_text', {
      enumerable: true,
      get: () => {
        reads += 1;
        return 'late text';
      },
    });
    const item = makeTrialItem({ output: output as never });
    const candidate = buildMetricInput(item, task, 0).candidate;
    expect(reads).toBe(0);
    expect(Object.keys(candidate)).toEqual(['output_text', 'response', 'trajectory', 'evidence', 'metadata']);
    expect(candidate.output_text).toBe('late text');
    expect(candidate.output_text).toBe('late text');
    expect(reads).toBe(1);
    expect(JSON.parse(JSON.stringify({ ...candidate, evidence: null }))).toEqual({
      output_text: 'late text',
      response: null,
      trajectory: null,
      evidence: null,
      metadata: {},
    });
    candidate.output_text = 'set';
    expect(candidate.output_text).toBe('set');
  });

  it('gives an output text the output holds as a plain value (null when absent)', () => {
    const plain = buildMetricInput(
      makeTrialItem({ output: { output_text: 'done', response: null, metadata: {} } }),
      task,
      0,
    );
    expect(plain.candidate.output_text).toBe('done');
    expect(JSON.parse(JSON.stringify({ ...plain.candidate, evidence: null }))).toMatchObject({
      output_text: 'done',
    });
    const noText = { response: null, metadata: {} } as never;
    expect(buildMetricInput(makeTrialItem({ output: noText }), task, 0).candidate.output_text).toBeNull();
  });

  it('without an output: no evidence, empty metadata, null text and response', () => {
    const evidence = { marker: true } as unknown as CandidateEvidence;
    const item = { ...makeTrialItem({ output: null, metadata: { a: 1 } }), evidence };
    expect(buildMetricInput(item, task, 0).candidate).toEqual({
      output_text: null,
      response: null,
      trajectory: null,
      evidence: null,
      metadata: {},
    });
  });
});
