import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { Sink } from '../../src/sinks/sink.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';
import { startEngineServer } from './start-engine-server.js';

function request(trial: string): Uint8Array {
  const agent = fakeAgent(new InMemorySpanExporter());
  agent.runTrial('t', trial);
  return ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('serve with a failing sink', () => {
  it('reports the failure at /healthz and in the log, keeps taking exports, and keeps every trial', async () => {
    const stored: string[] = [];
    const sink: Sink<ScoredTrial> = {
      write: async (trial) => {
        if (stored.length === 1) throw new Error('disk full');
        stored.push(trial.item.trial.id);
      },
      flush: async () => {},
      shutdown: async () => {},
    };
    const problems: string[] = [];
    const engine = new LiveEngine(
      liveEngineConfig({
        completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null },
        concurrency: 1,
        onProblem: (m) => problems.push(m),
      }),
      createTrialPlanner({ config: parseConfig({}, 'defaults') }),
      [sink],
    );
    const { http, url } = await startEngineServer(engine);
    try {
      for (const trial of ['a', 'b', 'c', 'd']) {
        const res = await fetch(`${url}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body: request(trial),
        });
        expect(res.status).toBe(200);
        await until(() => engine.finalTrials().length === ['a', 'b', 'c', 'd'].indexOf(trial) + 1);
      }
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({
        status: 'unhealthy',
        problem: 'a sink failed and receives no more trials: disk full',
      });
    } finally {
      await http.shutdown();
    }
    expect(await engine.shutdown()).toBe(4);
    expect(stored).toEqual(['a']);
    expect(problems).toEqual(['a sink failed and receives no more trials: disk full']);
    expect(engine.finalTrials().map((t) => t.item.trial.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(engine.problem()).toBe('a sink failed and receives no more trials: disk full');
  });
});
