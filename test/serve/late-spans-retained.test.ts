import { describe, expect, it } from 'vitest';
import { agentTrialPayloads } from '../../bench/agent-trial-payloads.js';
import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { manualEngine } from './live-engine-config.js';

describe('trials kept for late spans', () => {
  it('late spans re-score a retained trial from its own bytes; spans of a sealed trial are refused', async () => {
    const { payload } = agentTrialPayloads(4);
    const perBody = 3;
    const bodies = Array.from({ length: 24 }, (_, b) =>
      Buffer.concat(Array.from({ length: perBody }, (_, i) => payload(b * perBody + i + 1))),
    );
    const late = (n: number): Buffer =>
      Buffer.from(
        JSON.stringify({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: n.toString(16).padStart(32, '0'),
                      spanId: 'feedfacefeedface',
                      name: 'late tool call',
                      startTimeUnixNano: '1700000000000000000',
                      endTimeUnixNano: '1700000000000000001',
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
    let now = 0;
    const engine = manualEngine(() => now, { retainMaxTrials: 6 });
    const handler = decodingBodyHandler(engine);
    // a copy, as the receiver reads a body: the spans read these bytes back, not the sender's
    const send = (bytes: Buffer, encoding: 'protobuf' | 'json') =>
      handler.acceptBody(Buffer.from(bytes), encoding);
    for (const body of bodies) {
      expect(send(body, 'protobuf')).toEqual({ rejectedSpans: 0, errorMessage: '' });
      engine.tick();
      now += 100;
      engine.tick();
      await engine.whenIdle();
      engine.tick();
    }
    type Scored = { scores: { metric_type: string; outputs: { name: string; value: unknown }[] }[] };
    const steps = (trial: unknown): unknown =>
      (trial as Scored).scores
        .find((s) => s.metric_type === 'trajectory_stats')
        ?.outputs.find((o) => o.name === 'steps')?.value;
    const before = steps(engine.trialJson('conv-0000000000000000070'));
    expect(typeof before).toBe('number');
    // the last six trials are retained (their spans read back from their bodies), the ones before are sealed
    expect(send(late(70), 'json')).toEqual({ rejectedSpans: 0, errorMessage: '' });
    expect(send(late(3), 'json')).toMatchObject({ rejectedSpans: 1 });
    engine.tick();
    now += 100;
    engine.tick();
    await engine.whenIdle();
    await engine.shutdown();
    expect(engine.trialJson('conv-0000000000000000070')).toMatchObject({
      version: 2,
      completion: 'late-spans',
    });
    // scored again from the spans read back from the first body plus the late one
    expect(steps(engine.trialJson('conv-0000000000000000070'))).toBe((before as number) + 1);
    expect(engine.finalTrials()).toHaveLength(72);
  });
});
