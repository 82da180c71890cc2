import { describe, expect, it } from 'vitest';
import { LateLive } from '../../src/serve/late-live.js';
import type { BodyHandler, LiveReadApi, OtlpSignal } from '../../src/serve/serve-types.js';

describe('LateLive', () => {
  it('answers "starting" before the run is set, then hands bodies over with their signal', () => {
    const late = new LateLive();
    expect(late.acceptBody(Buffer.alloc(0), 'protobuf', 'logs')).toMatchObject({ saturated: true });
    const seen: (OtlpSignal | undefined)[] = [];
    const bodies: BodyHandler = {
      saturation: () => null,
      isSaturated: () => false,
      waitForCapacity: async () => undefined,
      acceptBody: (_body, _encoding, signal) => {
        seen.push(signal);
        return { rejectedSpans: 0, errorMessage: '' };
      },
    };
    late.set(bodies, {} as LiveReadApi);
    late.acceptBody(Buffer.alloc(0), 'protobuf', 'logs');
    late.acceptBody(Buffer.alloc(0), 'json', 'traces');
    expect(seen).toEqual(['logs', 'traces']);
  });
});
