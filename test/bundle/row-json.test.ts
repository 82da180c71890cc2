import { describe, expect, it } from 'vitest';
import { scoreJson, trialJson } from '../../src/bundle/row-json.js';
import { rowSchemas } from '../../src/bundle/row-schemas.js';
import { rowSources } from '../../src/bundle/row-sources.js';
import { scoreToWire, trialToWire } from '../../src/bundle/to-wire.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Trial } from '../../src/model/trial.js';
import { pythonJson } from '../../src/pycompat/python-json.js';

const measurements = {
  prompt_tokens: 10,
  completion_tokens: 2,
  total_tokens: 12,
  cache_creation_tokens: null,
  cache_read_tokens: 0,
  runtime_sec: 1,
  cost_usd: 1e-5,
};

const trials: Trial[] = [
  {
    id: 't1',
    task_id: 'A',
    status: 'completed',
    output: { output_text: 'h\u00e9llo "x"\n', response: { z: 1, a: [1.5, null, true] }, metadata: {} },
    evidence: {
      descriptors: {
        'trace:otlp': {
          kind: 'trace',
          format: 'otlp',
          ref: '/abs/run.jsonl',
          data: null,
          description: null,
          metadata: {},
        },
        trace: {
          kind: 'trace',
          format: 'atif',
          ref: null,
          data: { steps: [] },
          description: 'd',
          metadata: { k: 2 },
        },
        '\u{1F600}': { kind: 'k', format: 'f', ref: 'x', data: null, description: null, metadata: {} },
        '\uff01': { kind: 'k', format: 'f', ref: 'y', data: null, description: null, metadata: {} },
      },
      metadata: { source: 'harbor' },
    },
    error: null,
    measurements,
    metadata: { b: 'x', a: { nested: [1, 2.25] }, '10': 1, '9': 2 },
  } as unknown as Trial,
  {
    id: 't2',
    task_id: 'B',
    status: 'failed',
    output: null,
    evidence: null,
    error: {
      type: 'AgentTimeoutError',
      message: 'timed out',
      traceback: null,
      occurred_at: '2026-01-05T12:17:05',
    },
    measurements: { ...measurements, runtime_sec: null, cost_usd: 3, total_tokens: null },
    metadata: {},
  } as unknown as Trial,
];

const metadata = { source_file: 'x.binpb', otlp_span_count: 12 };
const score = (over: Partial<ScoreRecord>): ScoreRecord =>
  ({
    id: 'R:A:t1:m',
    run_id: 'R',
    task_id: 'A',
    trial_id: 't1',
    metric_type: 'm',
    metadata: { row_index: 0, trial_metadata: metadata },
    status: 'completed',
    outputs: [
      { name: 'c', value: 1 },
      { name: 'n', value: NaN },
      { name: 'i', value: -Infinity },
      { name: 'o', value: { b: [1, 'é'], a: null } },
      { name: 'd', value: 2 },
    ],
    diagnostics: [],
    ...over,
  }) as ScoreRecord;

const scores: ScoreRecord[] = [
  score({}),
  score({
    status: 'failed',
    outputs: [],
    diagnostics: [
      { severity: 'error', message: 'bad', source: 'm', details: { exception_type: 'ValueError' } },
      { severity: 'warning', message: 'w\u2028', source: 'm', details: {} },
    ],
  }),
  score({ metadata: { trial_metadata: metadata, row_index: 3 } }),
  score({ metadata: { row_index: 1, trial_metadata: metadata, extra: true } }),
  score({ metadata: { row_index: 1, trial_metadata: { ...metadata } } }),
];

/** A row as a bundle reader yields it: parsed, and remembered as read from `line`. */
function fromLine<T extends object>(schema: { parse(value: unknown): T }, line: string): T {
  const row = schema.parse(JSON.parse(line));
  rowSources.remember(row, line);
  return row;
}

const schemaOf = (_metric: string, output: string) => (output === 'c' ? 'ContinuousScore' : undefined);

describe('trialJson / scoreJson', () => {
  it('write the bytes of pythonJson over the wire rows, with and without the metadata text given', () => {
    const mapRef = (ref: string | null) => (ref === null ? null : `mapped/${ref}`);
    for (const trial of trials) {
      const expected = pythonJson(trialToWire(trial, mapRef));
      expect(trialJson(trial, mapRef)).toBe(expected);
      expect(trialJson(trial, mapRef, pythonJson(trial.metadata))).toBe(expected);
    }
    const given = { value: metadata, text: pythonJson(metadata) };
    for (const s of scores) {
      const expected = pythonJson(scoreToWire(s, schemaOf));
      expect(scoreJson(s, schemaOf)).toBe(expected);
      expect(scoreJson(s, schemaOf, given)).toBe(expected);
      expect(scoreJson(s)).toBe(pythonJson(scoreToWire(s)));
    }
  });

  it('keep integral float literals of rows read from a bundle', () => {
    const trialLine =
      '{"error": null, "evidence": null, "id": "t", "measurements": {"cache_creation_tokens": null, "cache_read_tokens": null, "completion_tokens": null, "cost_usd": null, "prompt_tokens": null, "runtime_sec": 2.0, "total_tokens": null}, "metadata": {"n": 1, "w": 1.0}, "output": {"metadata": {}, "output_text": "x", "response": null}, "status": "completed", "task_id": "A"}';
    const scoreLine =
      '{"diagnostics": [], "id": "s", "metadata": {"row_index": 0, "trial_metadata": {"w": 1.0}}, "metric_type": "m", "outputs": [{"name": "v", "value": 1.0}, {"name": "u", "value": 1}], "run_id": "R", "status": "completed", "task_id": "A", "trial_id": "t"}';
    const trial = fromLine(rowSchemas.trial, trialLine) as Trial;
    const read = fromLine(rowSchemas.score, scoreLine) as ScoreRecord;
    expect(trialJson(trial)).toBe(trialLine);
    expect(scoreJson(read, () => 'ContinuousScore')).toBe(scoreLine);
  });
});
