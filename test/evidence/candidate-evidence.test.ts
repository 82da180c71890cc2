import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ATIFTraceHandle } from '../../src/evidence/atif/atif-trace-handle.js';
import { CandidateEvidence } from '../../src/evidence/candidate-evidence.js';
import { EvidenceKeyError } from '../../src/evidence/evidence-key-error.js';
import { EvidenceValueError } from '../../src/evidence/evidence-value-error.js';
import type { TrajectoryView } from '../../src/model/trajectory-view.js';
import type { EvidenceDescriptor } from '../../src/model/trial.js';

const fixtures = fileURLToPath(new URL('../fixtures/atif/', import.meta.url));
const d = (
  kind: string,
  format: string | null,
  ref: string | null,
  data: EvidenceDescriptor['data'] = null,
): EvidenceDescriptor => ({
  kind,
  format,
  ref,
  data,
  description: null,
  metadata: {},
});
const atifRef = d('trace', 'atif', 'nemo-agent-toolkit__exmp02_atif.json');
const fakeOtlp = (): TrajectoryView => ({
  format: 'otlp',
  normalizedToolCalls: () => [],
  normalizedTokenUsage: () => ({ input: 1, output: 2, cached: null, costUsd: null, vocabulary: ['gen_ai'] }),
  stepCount: () => 4,
  turnCount: () => 1,
  finalText: () => 'hi',
});

describe('CandidateEvidence lookups', () => {
  const ev = new CandidateEvidence(
    {
      descriptors: {
        trace: atifRef,
        final_state: d('filesystem', null, '/tmp'),
        logs: d('logs', null, '/tmp'),
      },
      metadata: { producer: 'test' },
    },
    { baseDir: fixtures },
  );

  it('names / get / require', () => {
    expect(ev.names()).toEqual(['trace', 'final_state', 'logs']);
    expect(ev.names('filesystem')).toEqual(['final_state']);
    expect(ev.get('trace')?.kind).toBe('trace');
    expect(ev.get('nope')).toBeNull();
    expect(ev.get('toString')).toBeNull();
    expect(() => ev.require('final_state', 'trace')).toThrow(
      new EvidenceValueError("evidence descriptor 'final_state' has kind 'filesystem', expected 'trace'"),
    );
    const err = (() => {
      try {
        ev.require('initial_state');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(EvidenceKeyError);
    expect((err as Error).message).toBe("missing evidence descriptor 'initial_state'");
  });

  it('trace() resolves relative refs against baseDir and caches the handle', async () => {
    const a = await ev.trace();
    expect(a).toBeInstanceOf(ATIFTraceHandle);
    expect(a.stepCount()).toBe(3);
    expect(await ev.trace('trace', 'atif')).toBe(a);
    expect(ev.traceSync()).toBe(a);
  });

  it('asking for a format the trial lacks is a KeyError with the SDK text', async () => {
    await expect(ev.trace('trace', 'otlp')).rejects.toThrow(
      new EvidenceKeyError("missing evidence descriptor 'trace' in format 'otlp'", 'trace'),
    );
    await expect(ev.trace('trace', 'otlp')).rejects.toBeInstanceOf(EvidenceKeyError);
  });

  it('a non-trace descriptor is refused by trace()', async () => {
    await expect(ev.trace('final_state')).rejects.toThrow(
      "evidence descriptor 'final_state' has kind 'filesystem', expected 'trace'",
    );
  });

  it('metadata and toRecord round-trip', () => {
    expect(ev.metadata).toEqual({ producer: 'test' });
    const rec = ev.toRecord();
    expect(rec.descriptors['trace']).toEqual(atifRef);
    expect(new CandidateEvidence(rec).names()).toEqual(ev.names());
  });
});

describe('trace format resolution (spec §5)', () => {
  it('declared format null counts as atif; json is not readable', async () => {
    const ev = new CandidateEvidence(
      { trace: d('trace', null, 'nemo-agent-toolkit__exmp04_atif.json'), raw: d('trace', 'json', 'x.json') },
      { baseDir: fixtures },
    );
    expect((await ev.trace('trace', 'atif')).format).toBe('atif');
    await expect(ev.trace('raw')).rejects.toThrow(
      new EvidenceValueError("unknown trace evidence format 'json'"),
    );
  });

  it('with format F: `name` first, then `name:F`, by declared format', async () => {
    const otlp = fakeOtlp();
    const ev = new CandidateEvidence(
      { descriptors: { 'trace:atif': atifRef }, metadata: {} },
      { baseDir: fixtures },
    );
    ev.attach('trace', d('trace', 'otlp', 'spans.jsonl'), otlp);
    expect(await ev.trace()).toBe(otlp);
    expect(await ev.trace('trace', 'otlp')).toBe(otlp);
    const atif = await ev.trace('trace', 'atif');
    expect(atif.format).toBe('atif');
    expect(atif.normalizedToolCalls().map((c) => c.name)).toEqual(['calculator__add']);
    expect(await ev.trace('trace:atif')).toBe(atif);
  });

  it('the key suffix alone never qualifies a descriptor', async () => {
    const ev = new CandidateEvidence(
      { trace: atifRef, 'trace:otlp': d('trace', 'atif', 'nemo-agent-toolkit__exmp04_atif.json') },
      { baseDir: fixtures },
    );
    await expect(ev.trace('trace', 'otlp')).rejects.toThrow(
      "missing evidence descriptor 'trace' in format 'otlp'",
    );
  });

  it('otlp descriptors use the registered loader (per instance here), once per key', async () => {
    let calls = 0;
    const handle = fakeOtlp();
    const ev = new CandidateEvidence(
      { trace: d('trace', 'otlp', 'spans.jsonl') },
      {
        baseDir: '/data',
        traceLoaders: {
          otlp: async (desc, ctx) => {
            calls += 1;
            expect(ctx.resolveRef(desc.ref ?? '')).toBe('/data/spans.jsonl');
            return handle;
          },
        },
      },
    );
    expect(await ev.trace()).toBe(handle);
    expect(await ev.trace('trace', 'otlp')).toBe(handle);
    expect(calls).toBe(1);
  });

  it('otlp descriptors default to OTLPTraceHandle', async () => {
    // the opentelemetry-proto examples/trace.json request, one span, given as inline data
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'my.service' } }] },
          scopeSpans: [
            {
              scope: { name: 'my.library', version: '1.0.0' },
              spans: [
                {
                  traceId: '5B8EFFF798038103D269B633813FC60C',
                  spanId: 'EEE19B7EC3C1B174',
                  parentSpanId: 'EEE19B7EC3C1B173',
                  name: "I'm a server span",
                  startTimeUnixNano: '1544712660000000000',
                  endTimeUnixNano: '1544712661000000000',
                  kind: 2,
                },
              ],
            },
          ],
        },
      ],
    };
    const ev = new CandidateEvidence({ trace: d('trace', 'otlp', null, request) });
    const h = await ev.trace('trace', 'otlp');
    expect(h.format).toBe('otlp');
    expect(h.stepCount()).toBe(1);
  });

  it('inline data traces need no file', async () => {
    const ev = new CandidateEvidence({
      trace: d('trace', 'atif', null, {
        schema_version: 'ATIF-v1.7',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'agent', message: 'done' }],
      }),
    });
    expect((await ev.trace()).finalText()).toBe('done');
  });
});

describe('descriptor and ref validation', () => {
  it('a descriptor needs ref or data', () => {
    expect(() => new CandidateEvidence({ trace: d('trace', 'atif', null) })).toThrow(
      'evidence descriptor requires ref or data',
    );
  });

  it('filesystem/logs need a local ref', async () => {
    const ev = new CandidateEvidence({
      fs: d('filesystem', null, null, { inline: true }),
      remote: d('filesystem', null, 's3://bucket/key'),
      weird: d('logs', null, 'ftp://host/x'),
      file: d('filesystem', null, 'file:///tmp'),
    });
    await expect(ev.filesystem('fs')).rejects.toThrow(
      "filesystem evidence descriptor 'fs' requires a local ref",
    );
    await expect(ev.filesystem('remote')).rejects.toThrow(
      'CandidateEvidence.filesystem only supports local filesystem refs',
    );
    await expect(ev.logs('weird')).rejects.toThrow(
      "CandidateEvidence.filesystem does not support 'ftp' refs",
    );
    const fs = await ev.filesystem('file');
    expect(fs).toBe(await ev.filesystem('file'));
    await expect(ev.logs()).rejects.toThrow("missing evidence descriptor 'logs'");
  });
});
