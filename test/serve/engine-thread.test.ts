import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { Summary } from '../../src/model/summary.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { decodeExportRequest } from '../../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { EngineThread, EngineThreadStartError } from '../../src/serve/engine-thread.js';
import type { ExportOutcome } from '../../src/serve/export-response.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { LiveIntervalsJson } from '../../src/serve/live-intervals.js';
import type { Saturated, Undecodable } from '../../src/serve/serve-types.js';
import { fakeAgent } from './fake-agent.js';
import { liveEngineConfig } from './live-engine-config.js';
import { liveRunOptions as runOptions } from './live-run-options.js';

const RUN = 'agent-eval-20260101000000-00000000';

/** Export bodies of a few fake-agent trials, one trial per body, protobuf and JSON alternating. */
function trialBodies(): { body: Buffer; encoding: 'protobuf' | 'json' }[] {
  const agent = fakeAgent(new InMemorySpanExporter());
  const trials: [string, string, { tools?: string[]; fail?: boolean }][] = [
    ['weather', 'w1', {}],
    ['weather', 'w2', { tools: ['get_weather', 'get_weather'] }],
    ['time', 't1', { tools: ['get_time', 'lookup'] }],
    ['time', 't2', { fail: true }],
  ];
  const out: { body: Buffer; encoding: 'protobuf' | 'json' }[] = [];
  for (const [i, [task, trial, opts]] of trials.entries()) {
    agent.recorded.reset();
    agent.runTrial(task, trial, opts);
    const spans = agent.recorded.getFinishedSpans();
    out.push(
      i % 2 === 0
        ? { body: Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), encoding: 'protobuf' }
        : { body: Buffer.from(JsonTraceSerializer.serializeRequest(spans)!), encoding: 'json' },
    );
  }
  return out;
}

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function isAccepted(outcome: ExportOutcome | Saturated | Undecodable): boolean {
  return 'rejectedSpans' in outcome && outcome.rejectedSpans === 0;
}

describe('EngineThread (the live run on its own thread)', () => {
  it('scores bodies moved to it exactly as the engine on the receiving thread does, and writes the bundle at finish', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-engine-thread-'));
    const engine = await EngineThread.start(runOptions({ out: join(dir, 'bundle') }));
    expect(engine.runId).toBe(RUN);
    const events: { type: string; data: unknown }[] = [];
    const unsubscribe = engine.onEvent((e) => events.push(e));

    const local = new LiveEngine(
      liveEngineConfig({ completion: { settleMs: 20, idleTimeoutMs: 60_000, endMarkerAttribute: null } }),
      createTrialPlanner({ config: parseConfig({}, 'defaults'), onWarning: () => undefined }),
      [],
    );
    local.start();
    const localBodies = decodingBodyHandler(local, decodeExportRequest);

    for (const { body, encoding } of trialBodies()) {
      expect(localBodies.acceptBody(Buffer.from(body), encoding)).toEqual({
        rejectedSpans: 0,
        errorMessage: '',
      });
      // the thread's copy is moved (transferred): the caller's buffer is detached afterwards
      const moved = Buffer.from(body);
      expect(await engine.acceptBody(moved, encoding)).toEqual({ rejectedSpans: 0, errorMessage: '' });
    }
    await waitFor(async () =>
      ((await engine.summaryJson()) as { text: string }).text.includes('"trial_count":4'),
    );
    await waitFor(async () => (local.summaryJson() as Summary).trial_count === 4);
    // the intervals' sequences depend on the order trials were scored in, which differs between them
    type WithIntervals = Summary & { intervals: LiveIntervalsJson };
    const { intervals: threadIntervals, ...threadSummary } = JSON.parse(
      (await engine.summaryJson()).text,
    ) as WithIntervals;
    const { intervals: localIntervals, ...localSummary } = JSON.parse(
      JSON.stringify(local.summaryJson()),
    ) as WithIntervals;
    expect(threadSummary).toEqual(localSummary);
    const means = (i: LiveIntervalsJson) => i.outputs.map((o) => [o.name, o.n, o.mean.toFixed(12)]);
    expect(means(threadIntervals)).toEqual(means(localIntervals));
    const light = JSON.parse((await engine.summaryJson({ omitTaskValues: true })).text) as Record<
      string,
      unknown
    >;
    expect(light).not.toHaveProperty('task_metric_values');
    expect(light['trial_count']).toBe(4);

    expect(await engine.trialJson('w2')).toEqual(JSON.parse(JSON.stringify(local.trialJson('w2'))));
    expect(await engine.trialJson('nope')).toBeUndefined();
    const metrics = await engine.metricsText();
    expect(metrics).toContain('evalstream_trials_scored_total 4');
    expect(metrics).toContain(`evalstream_spans_received_total ${local.metrics.spansReceived}`);
    expect(events.filter((e) => e.type === 'score').length).toBeGreaterThanOrEqual(4);
    unsubscribe();
    expect(engine.healthy()).toBe(true);

    expect(await engine.finish()).toEqual({ trials: 4, problem: null });
    const bundled = JSON.parse(await readFile(join(dir, 'bundle', 'summary.json'), 'utf8')) as Summary;
    expect(bundled).toEqual(threadSummary);
    await local.shutdown();
    // after the thread ended, calls fail instead of hanging
    await expect(engine.metricsText()).rejects.toThrow(/engine thread exited/);
    expect(engine.saturation()).toMatchObject({ saturated: true });
  });

  it('answers a body that does not decode as undecodable, naming where', async () => {
    const engine = await EngineThread.start(runOptions());
    const outcome = await engine.acceptBody(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f]), 'protobuf');
    expect(outcome).toHaveProperty('undecodable');
    expect((outcome as Undecodable).undecodable).toMatch(/at byte 1 /);
    const json = await engine.acceptBody(Buffer.from('{"resourceSpans": ['), 'json');
    expect(json).toHaveProperty('undecodable');
    expect(await engine.finish()).toEqual({ trials: 0, problem: null });
  });

  it('a body let in while the queues filled waits for room (waitMs) instead of being refused at once', async () => {
    const bodies = trialBodies();
    // two trials of the same shape (two tool calls each), one JSON and one protobuf body
    const first = bodies[1]!;
    const second = bodies[2]!;
    const spansPerBody = decodeExportRequest(second.body, 'protobuf')[0]!.scopeSpans[0]!.spans.length;
    expect(decodeExportRequest(first.body, 'json')[0]!.scopeSpans[0]!.spans.length).toBe(spansPerBody);
    // room for one request's spans: a second request sent with it finds the queue full
    const opts = runOptions({ maxQueuedSpans: spansPerBody });
    const waiting = await EngineThread.start(opts);
    const both = await Promise.all([
      waiting.acceptBody(Buffer.from(first.body), first.encoding, 1000),
      waiting.acceptBody(Buffer.from(second.body), second.encoding, 1000),
    ]);
    expect(both.every(isAccepted)).toBe(true);
    // the wait on the engine thread is counted (the watcher of the mirrored state is not)
    expect(await waiting.metricsText()).toMatch(/^evalstream_export_waits_total 1$/m);
    expect(await waiting.finish()).toEqual({ trials: 2, problem: null });

    const refusing = await EngineThread.start(opts);
    const outcomes = await Promise.all([
      refusing.acceptBody(Buffer.from(first.body), first.encoding, 0),
      refusing.acceptBody(Buffer.from(second.body), second.encoding, 0),
    ]);
    expect(outcomes.filter(isAccepted).length).toBe(1);
    expect(outcomes.find((o) => 'saturated' in o)).toMatchObject({ saturated: true, retryAfterSec: 1 });
    expect(await refusing.finish()).toEqual({ trials: 1, problem: null });
  });

  it('fails to start with badInput when the config is invalid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-engine-thread-'));
    const config = join(dir, 'bad.json');
    await writeFile(config, '{"scoring": {"timeoutMs": "soon"}}');
    const failure = await EngineThread.start(runOptions({ configFile: config })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineThreadStartError);
    expect((failure as EngineThreadStartError).badInput).toBe(true);
    expect((failure as Error).message).toContain('bad.json');
  });
});
