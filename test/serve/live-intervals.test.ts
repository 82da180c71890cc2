import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { LiveIntervals, type LiveIntervalsJson } from '../../src/serve/live-intervals.js';
import { confidenceSequence } from '../../src/stats/confidence-sequence.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';

function trialWith(outputs: Record<string, number | boolean>): ScoredTrial {
  return {
    scores: [
      {
        metric_type: 'm',
        outputs: Object.entries(outputs).map(([name, value]) => ({ name, value })),
      },
    ],
  } as unknown as ScoredTrial;
}

describe('live intervals', () => {
  it('gives each output bounded in [0, 1] its fixed-n interval and its confidence sequence; none to others', () => {
    const intervals = new LiveIntervals(0.05);
    const passed = [true, false, true, true, false, true, true, true, false, true];
    passed.forEach((p, i) => intervals.add(trialWith({ passed: p, tokens: 100 + i })));
    const json = intervals.json(0.5);
    expect(json.outputs.map((o) => o.name)).toEqual(['m.passed']);
    const [out] = json.outputs;
    const values = passed.map(Number);
    const cs = confidenceSequence(values)!;
    expect(out!.n).toBe(10);
    expect(out!.mean).toBeCloseTo(0.7, 12);
    expect(out!.sequence).toEqual({ lower: cs.lower, upper: cs.upper, width: cs.upper - cs.lower });
    // Student-t: 0.7 ± t(0.975, 9) · s/√10, s² = 10·0.21/9; t(0.975, 9) = 2.2621571627
    const half = 2.2621571627 * Math.sqrt((10 * 0.21) / 9 / 10);
    expect(out!.fixed_n!.lower).toBeCloseTo(0.7 - half, 8);
    expect(out!.fixed_n!.upper).toBeCloseTo(0.7 + half, 8);
    expect(out!.sequence.width).toBeGreaterThan(2 * half);
    expect(json.stop_reached).toBe(false);
    expect(out!.narrower_than_stop).toBe(false);
  });

  it('says when every sequence is narrower than the stop width', () => {
    const intervals = new LiveIntervals(0.05);
    for (let i = 0; i < 5000; i++) intervals.add(trialWith({ a: i % 2, b: i % 4 === 0 ? 1 : 0 }));
    expect(intervals.json(0.1).stop_reached).toBe(true);
    expect(intervals.json(0.01).stop_reached).toBe(false);
    expect(intervals.json(null).stop_reached).toBeNull();
  });

  it('is part of the live summary, with the stop width of the run', async () => {
    const engine = new LiveEngine(
      liveEngineConfig({
        completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null },
        stopWhenWidth: 0.2,
      }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [],
    );
    for (const trial of ['a', 'b', 'c']) {
      const agent = fakeAgent(new InMemorySpanExporter());
      agent.runTrial('t', trial, { fail: trial === 'b' });
      const body = ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
      engine.acceptRequest(decodeExportRequest(body, 'protobuf'));
    }
    engine.tick();
    await engine.whenIdle();
    engine.tick();
    await engine.shutdown();
    const summary = engine.summaryJson() as { trial_count: number; intervals: LiveIntervalsJson };
    expect(summary.trial_count).toBe(3);
    expect(summary.intervals.stop_when_width).toBe(0.2);
    expect(summary.intervals.outputs.length).toBeGreaterThan(0);
    for (const out of summary.intervals.outputs) {
      expect(out.n).toBe(3);
      expect(out.sequence.lower).toBeLessThanOrEqual(out.mean);
      expect(out.sequence.upper).toBeGreaterThanOrEqual(out.mean);
    }
    expect(summary.intervals.stop_reached).toBe(false);
  });
});
