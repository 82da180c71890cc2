import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { EvaluationResultEmitter } from '../../src/serve/evaluation-result-emitter.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';
import { startLogsReceiver } from './otlp-logs-receiver.js';

describe('serve --emit-otlp', () => {
  it('sends each score as a gen_ai.evaluation.result log record parented to its trial’s root span', async () => {
    const receiver = await startLogsReceiver();
    const emitter = new EvaluationResultEmitter(`${receiver.url}/v1/logs`, { runId: 'run-1', flushMs: 10 });
    const engine = new LiveEngine(
      liveEngineConfig({ completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null } }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [emitter],
    );
    const roots = new Map<string, { traceId: string; spanId: string }>();
    try {
      for (const trial of ['a', 'b']) {
        const agent = fakeAgent(new InMemorySpanExporter());
        agent.runTrial('t', trial, { fail: trial === 'b' });
        const spans = agent.recorded.getFinishedSpans();
        const root = spans.find((s) => s.name.startsWith('invoke_agent'))!;
        roots.set(trial, { traceId: root.spanContext().traceId, spanId: root.spanContext().spanId });
        engine.acceptRequest(
          decodeExportRequest(ProtobufTraceSerializer.serializeRequest(spans)!, 'protobuf'),
        );
      }
      engine.tick();
      await engine.whenIdle();
      engine.tick();
      await engine.shutdown();
      await emitter.shutdown();
      const trials = engine.finalTrials();
      expect(trials).toHaveLength(2);
      const expected = trials.flatMap((t) =>
        t.scores.flatMap((s) =>
          s.outputs
            .filter(
              (o) =>
                typeof o.value === 'number' || typeof o.value === 'boolean' || typeof o.value === 'string',
            )
            .map((o) => ({ trial: t.item.trial.id, name: `${s.metric_type}.${o.name}`, value: o.value })),
        ),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(receiver.records).toHaveLength(expected.length);
      for (const want of expected) {
        const got = receiver.records.find(
          (r) =>
            r.attributes['evalstream.trial_id'] === want.trial &&
            r.attributes['gen_ai.evaluation.name'] === want.name,
        )!;
        expect(got, `${want.trial} ${want.name}`).toBeDefined();
        expect(got.eventName).toBe('gen_ai.evaluation.result');
        expect(got.traceId).toBe(roots.get(want.trial)!.traceId);
        expect(got.spanId).toBe(roots.get(want.trial)!.spanId);
        expect(got.resource['evalstream.run_id']).toBe('run-1');
        if (typeof want.value === 'number')
          expect(got.attributes['gen_ai.evaluation.score.value']).toBe(want.value);
        if (typeof want.value === 'boolean') {
          expect(got.attributes['gen_ai.evaluation.score.value']).toBe(want.value ? 1 : 0);
          expect(got.attributes['gen_ai.evaluation.score.label']).toBe(String(want.value));
        }
        if (typeof want.value === 'string')
          expect(got.attributes['gen_ai.evaluation.score.label']).toBe(want.value);
      }
    } finally {
      await receiver.close();
    }
  });

  it('fails the sink, naming the endpoint, when the receiver refuses', async () => {
    const emitter = new EvaluationResultEmitter('http://127.0.0.1:9/v1/logs', { runId: 'r', flushMs: 1 });
    const engine = new LiveEngine(
      liveEngineConfig({ completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null } }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [emitter],
    );
    const agent = fakeAgent(new InMemorySpanExporter());
    agent.runTrial('t', 'x');
    engine.acceptRequest(
      decodeExportRequest(
        ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!,
        'protobuf',
      ),
    );
    await engine.shutdown();
    await expect(emitter.shutdown()).rejects.toThrow(
      /--emit-otlp http:\/\/127\.0\.0\.1:9\/v1\/logs: \d+ evaluation results could not be sent/,
    );
  });
});
