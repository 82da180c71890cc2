import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { TaskSpec } from '../../src/model/task.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { KeptTrials } from '../../src/serve/kept-trials.js';
import { makeTask } from '../metrics/make-trial-item.js';

const task = (id: string): TaskSpec => makeTask({ id });

function scored(trialId: string, spec: TaskSpec, value: number): ScoredTrial {
  const metadata = { source_format: 'otlp', otlp_trace_ids: [`${trialId}-trace`], otlp_span_count: 9 };
  const item = {
    trial: {
      id: trialId,
      task_id: spec.id,
      status: 'completed',
      output: { output_text: `answer of ${trialId}`, response: null, metadata: {} },
      evidence: null,
      error: null,
      measurements: { prompt_tokens: 10, runtime_sec: 0.25, cost_usd: null },
      metadata,
    },
    evidence: null,
    task: null,
    origin: { file: 'otlp-live' },
  } as unknown as TrialItem;
  const scores: ScoreRecord[] = ['a', 'b'].map((m) => ({
    id: `run:${spec.id}:${trialId}:${m}`,
    run_id: 'run',
    task_id: spec.id,
    trial_id: trialId,
    metric_type: m,
    status: 'completed',
    outputs: [{ name: 'x', value: m === 'a' ? value : -0 }],
    diagnostics: [],
    metadata: { row_index: 0, trial_metadata: metadata },
  }));
  return { item, scores, task: spec };
}

describe('KeptTrials', () => {
  it('gives back each trial equal to what was kept, its task by reference, in first-scored order', () => {
    const kept = new KeptTrials();
    const t1 = task('t1');
    const t2 = task('t2');
    const first = scored('c1', t1, 1);
    const second = scored('c2', t2, NaN);
    expect(kept.put(null, first, 1, 'ended')).toBe(0);
    expect(kept.put(null, second, 1, 'idle-timeout')).toBe(1);
    const back = kept.get(1);
    expect(back.scored).toEqual(second);
    expect(Object.is(back.scored.scores[1]!.outputs[0]!.value, -0)).toBe(true);
    expect(back.scored.task).toBe(t2);
    expect(back).toMatchObject({ version: 1, completion: 'idle-timeout' });
    expect(scoredTrials(kept)).toEqual([first, second]);
  });

  it('replaces a re-scored trial in its slot, keeping its place in the order', () => {
    const kept = new KeptTrials();
    const spec = task('t');
    kept.put(null, scored('c1', spec, 1), 1, 'ended');
    kept.put(null, scored('c2', spec, 2), 1, 'ended');
    const again = scored('c1', spec, 3);
    expect(kept.put(0, again, 2, 'late-spans')).toBe(0);
    expect(kept.size).toBe(2);
    expect(kept.version(0)).toBe(2);
    expect(kept.get(0)).toEqual({ scored: again, version: 2, completion: 'late-spans' });
    expect(scoredTrials(kept).map((s) => s.item.trial.id)).toEqual(['c1', 'c2']);
    kept.put(1, scored('c2', spec, 4), 2, 'shutdown');
    expect(kept.get(1).completion).toBe('shutdown');
  });
});

/** Every kept trial's scored version, in slot order. */
function scoredTrials(kept: KeptTrials): ScoredTrial[] {
  return Array.from({ length: kept.size }, (_, slot) => kept.get(slot).scored);
}
