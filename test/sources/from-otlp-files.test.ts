import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { firstValueFrom, lastValueFrom, take, toArray, type Observable } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CandidateEvidence } from '../../src/evidence/candidate-evidence.js';
import type { TrialItem } from '../../src/model/trial-item.js';
import { fromOtlpFiles } from '../../src/sources/from-otlp-files.js';
import { InputError } from '../../src/sources/input-error.js';
import { framed, protobufRequest, recordTrial, sdkTracer } from './from-otlp-fixtures.js';

const jsonLine = (spans: ReadableSpan[]): string =>
  new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans) as Uint8Array);

/** Collects what a source emits and how it ends (items before an error are kept). */
async function drain(source: Observable<TrialItem>): Promise<{ items: TrialItem[]; error: unknown }> {
  const items: TrialItem[] = [];
  return new Promise((resolve) => {
    source.subscribe({
      next: (i) => items.push(i),
      error: (error: unknown) => resolve({ items, error }),
      complete: () => resolve({ items, error: null }),
    });
  });
}

const summary = (items: TrialItem[]) =>
  items.map((i) => ({
    task: i.trial.task_id,
    trial: i.trial.id,
    spans: i.trial.metadata['otlp_span_count'],
    input: i.trial.measurements.prompt_tokens,
    output: i.trial.output?.output_text,
  }));

let dir: string;
let trialA1: ReadableSpan[];
let trialA2: ReadableSpan[];
let trialB: ReadableSpan[];
let plain: ReadableSpan[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'evalstream-otlp-'));
  const { tracer, exporter } = sdkTracer();
  // trial conv-A in two traces (two turns), trial conv-B, and a trace with no keys at all
  recordTrial(tracer, 'run:conv-A', 'task-1', ['search'], 1_760_000_000);
  trialA1 = exporter.getFinishedSpans().slice();
  exporter.reset();
  recordTrial(tracer, 'run:conv-A', 'task-1', ['lookup', 'search'], 1_760_000_010);
  trialA2 = exporter.getFinishedSpans().slice();
  exporter.reset();
  recordTrial(tracer, 'run:conv-B', 'task-2', [], 1_760_000_020);
  trialB = exporter.getFinishedSpans().slice();
  exporter.reset();
  recordTrial(tracer, null, null, ['x'], 1_760_000_030);
  plain = exporter.getFinishedSpans().slice();
});

// chat i: 100+i in; conv-A turn 1: 100+101, turn 2: 100+101+102, conv-B: 100
const EXPECTED = [
  { task: 'task-1', trial: 'run:conv-A', spans: 4 + 6, input: 201 + 303, output: 'done run:conv-A' },
  { task: 'task-2', trial: 'run:conv-B', spans: 2, input: 100, output: 'done run:conv-B' },
];

describe('fromOtlpFiles', () => {
  it('JSON lines: spans of one conversation spread over lines and traces form one trial', async () => {
    const file = join(dir, 'dump.jsonl');
    writeFileSync(
      file,
      [jsonLine(trialA1.slice(0, 2)), jsonLine(trialB), jsonLine([...trialA1.slice(2), ...trialA2])].join(
        '\n',
      ),
    );
    const items = await lastValueFrom(fromOtlpFiles([file], { chunkBytes: 64 }).pipe(toArray()));
    expect(summary(items)).toEqual(EXPECTED);
    expect(items[0]?.origin).toEqual({ file, line: 1 });
    expect(items[1]?.origin).toEqual({ file, line: 2 });
  });

  it('Collector frames, plain and gzip, and a single-request .pb: the same trials', async () => {
    const frames = framed([protobufRequest([...trialA1, ...trialA2]), protobufRequest(trialB)]);
    const pb = join(dir, 'dump.binpb');
    const gz = join(dir, 'dump.binpb.gz');
    const single = join(dir, 'one.pb');
    writeFileSync(pb, frames);
    writeFileSync(gz, gzipSync(frames));
    writeFileSync(single, protobufRequest([...trialA1, ...trialA2, ...trialB]));
    for (const file of [pb, gz, single]) {
      const items = await lastValueFrom(fromOtlpFiles([file], { chunkBytes: 100 }).pipe(toArray()));
      expect(summary(items), file).toEqual(EXPECTED);
    }
    const items = await lastValueFrom(fromOtlpFiles([pb]).pipe(toArray()));
    expect(items.map((i) => i.origin)).toEqual([
      { file: pb, offset: 0 },
      { file: pb, offset: 4 + protobufRequest([...trialA1, ...trialA2]).length },
    ]);
  });

  it('the trial output is plain data (its text found when first read)', async () => {
    const file = join(dir, 'plain-output.binpb');
    writeFileSync(file, framed([protobufRequest(trialB)]));
    const [item] = await lastValueFrom(fromOtlpFiles([file]).pipe(toArray()));
    const output = item?.trial.output;
    const expected = { output_text: 'done run:conv-B', response: null, metadata: {} };
    expect(Object.keys(output ?? {})).toEqual(['output_text', 'response', 'metadata']);
    expect(JSON.parse(JSON.stringify(output))).toEqual(expected);
    expect(structuredClone(output)).toStrictEqual(expected);
    expect(output).toStrictEqual(expected);
    expect({ ...output }).toStrictEqual(expected);
    if (output === null || output === undefined) throw new Error('no output');
    output.output_text = 'replaced';
    expect(output).toStrictEqual({ ...expected, output_text: 'replaced' });
  });

  it('the trial output finds its text when first read and copies as plain data', async () => {
    const file = join(dir, 'output-handle.binpb');
    writeFileSync(file, framed([protobufRequest(trialB)]));
    const [item] = await lastValueFrom(fromOtlpFiles([file]).pipe(toArray()));
    const output = item?.trial.output;
    if (output === null || output === undefined) throw new Error('no output');
    expect(Object.keys(output)).toEqual(['output_text', 'response', 'metadata']);
    expect(output.output_text).toBe('done run:conv-B');
    expect(output.output_text).toBe('done run:conv-B');
    expect({ ...output }).toStrictEqual({ output_text: 'done run:conv-B', response: null, metadata: {} });
    expect(structuredClone(output)).toStrictEqual({
      output_text: 'done run:conv-B',
      response: null,
      metadata: {},
    });
    output.output_text = 'set';
    expect(output.output_text).toBe('set');
  });

  it('a trace without grouping keys is its own trial, named by its trace id', async () => {
    const file = join(dir, 'plain.jsonl');
    writeFileSync(file, jsonLine(plain));
    const [item] = await lastValueFrom(fromOtlpFiles([file]).pipe(toArray()));
    const traceId = plain[0]?.spanContext().traceId;
    expect([item?.trial.id, item?.trial.task_id]).toEqual([traceId, traceId]);
  });

  it('attaches the in-memory trace as `trace` evidence (otlp) and records how to find it again', async () => {
    const file = join(dir, 'evidence.jsonl');
    writeFileSync(file, [jsonLine([...trialA1, ...trialB]), jsonLine(trialA2)].join('\n'));
    const items = await lastValueFrom(fromOtlpFiles([file]).pipe(toArray()));
    const a = items[0] as TrialItem;
    const live = await (a.evidence as CandidateEvidence).trace('trace', 'otlp');
    expect(live.normalizedToolCalls().map((c) => [c.name, c.arguments, c.result])).toEqual([
      ['search', { i: 0 }, { ok: 0 }],
      ['lookup', { i: 0 }, { ok: 0 }],
      ['search', { i: 1 }, { ok: 1 }],
    ]);
    const record = a.trial.evidence;
    expect(record?.descriptors['trace']).toMatchObject({ kind: 'trace', format: 'otlp', ref: file });
    // reloading from the record (as a bundle reader would) narrows the file to this trial's traces
    const reloaded = await new CandidateEvidence(record as never).trace('trace', 'otlp');
    expect(reloaded.stepCount()).toBe(live.stepCount());
    expect(reloaded.normalizedTokenUsage()).toEqual(live.normalizedTokenUsage());
  });

  it('span attributes win over resource attributes for the grouping keys', async () => {
    const { tracer, exporter } = sdkTracer({
      'service.name': 'x',
      'gen_ai.conversation.id': 'from-resource',
    });
    recordTrial(tracer, 'from-span', null, [], 1_760_000_100);
    recordTrial(tracer, null, null, [], 1_760_000_200);
    const file = join(dir, 'resource.jsonl');
    writeFileSync(file, jsonLine(exporter.getFinishedSpans()));
    const items = await lastValueFrom(fromOtlpFiles([file]).pipe(toArray()));
    expect(items.map((i) => i.trial.id)).toEqual(['from-span', 'from-resource']);
  });

  it('a trial whose spans are further apart than the window is split, and says so', async () => {
    const file = join(dir, 'window.jsonl');
    writeFileSync(file, [jsonLine(trialA1), jsonLine(trialB), jsonLine(plain), jsonLine(trialA2)].join('\n'));
    const items = await lastValueFrom(fromOtlpFiles([file], { windowRequests: 1 }).pipe(toArray()));
    expect(items.map((i) => i.trial.id)).toEqual([
      'run:conv-A',
      'run:conv-B',
      plain[0]?.spanContext().traceId,
      'run:conv-A#2',
    ]);
    expect(items[3]?.trial.metadata).toMatchObject({ otlp_split_trial: true, otlp_split_part: 2 });
  });

  it('a trial named by its trace id is split the same way, counted apart from key-named trials', async () => {
    const file = join(dir, 'window-trace.jsonl');
    writeFileSync(file, [jsonLine(plain), jsonLine(trialB), jsonLine(plain), jsonLine(trialB)].join('\n'));
    const items = await lastValueFrom(fromOtlpFiles([file], { windowRequests: 1 }).pipe(toArray()));
    const traceId = plain[0]?.spanContext().traceId as string;
    expect(items.map((i) => i.trial.id)).toEqual([traceId, 'run:conv-B', `${traceId}#2`, 'run:conv-B#2']);
    expect(items[2]?.trial.metadata).toMatchObject({ otlp_split_trial: true, otlp_split_part: 2 });
  });

  it('under memory pressure trials are emitted early but no span is lost', async () => {
    const file = join(dir, 'pressure.jsonl');
    writeFileSync(file, [jsonLine(trialA1), jsonLine(trialB), jsonLine(trialA2)].join('\n'));
    const items = await lastValueFrom(fromOtlpFiles([file], { maxOpenSpans: 3 }).pipe(toArray()));
    const total = items.reduce((n, i) => n + Number(i.trial.metadata['otlp_span_count']), 0);
    expect(total).toBe(trialA1.length + trialB.length + trialA2.length);
  });

  it('is lazy: taking one trial does not need the rest of the input', async () => {
    const file = join(dir, 'lazy.jsonl');
    writeFileSync(file, `${jsonLine(trialB)}\n${jsonLine(plain)}\n{ not json`);
    const first = await firstValueFrom(fromOtlpFiles([file], { windowRequests: 1 }).pipe(take(1)));
    expect(first.trial.id).toBe('run:conv-B');
  });

  describe('truncated or corrupt input', () => {
    it('a cut frame: the trials before it are emitted, then an InputError with file and byte offset', async () => {
      const first = protobufRequest(trialB);
      const file = join(dir, 'cut.binpb');
      const bytes = framed([first, protobufRequest(trialA1)]);
      writeFileSync(file, bytes.subarray(0, bytes.length - 10));
      const { items, error } = await drain(fromOtlpFiles([file]));
      expect(items.map((i) => i.trial.id)).toEqual(['run:conv-B']);
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ file, offset: 4 + first.length, line: null });
      expect((error as Error).message).toContain(`${file}: byte ${4 + first.length}: truncated frame`);
    });

    it('a corrupt frame body: InputError at a byte offset inside that frame', async () => {
      const first = protobufRequest(trialB);
      const second = Buffer.from(protobufRequest(trialA1));
      second[1] = 0xff; // first length byte of resource_spans: now runs past the end
      const file = join(dir, 'corrupt.binpb');
      writeFileSync(file, framed([first, second]));
      const { items, error } = await drain(fromOtlpFiles([file]));
      expect(items.map((i) => i.trial.id)).toEqual(['run:conv-B']);
      expect(error).toBeInstanceOf(InputError);
      const offset = (error as InputError).offset as number;
      expect(offset).toBeGreaterThanOrEqual(4 + first.length + 4);
      expect(offset).toBeLessThan(4 + first.length + 4 + second.length);
    });

    it('a bad JSON line: the trials before it, then an InputError naming the line', async () => {
      const file = join(dir, 'bad.jsonl');
      const text = jsonLine(trialA1);
      writeFileSync(file, `${jsonLine(trialB)}\n${text}\n${text.slice(0, 50)}\n`);
      const { items, error } = await drain(fromOtlpFiles([file]));
      // trial conv-A was still open when line 3 failed: it is emitted before the error
      expect(items.map((i) => i.trial.id)).toEqual(['run:conv-B', 'run:conv-A']);
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ file, line: 3 });
      expect((error as Error).message).toMatch(/bad\.jsonl: line 3: invalid JSON/);
    });

    /**
     * Frames of conv-B, conv-A's first turn damaged by `damage`, conv-A's second turn, in `name`;
     * read with `onIssue`: conv-A's first turn is gone with its frame, its second still makes the trial.
     */
    async function damagedMiddle(name: string, damage: (second: Buffer) => void) {
      const first = protobufRequest(trialB);
      const second = Buffer.from(protobufRequest(trialA1));
      damage(second);
      const file = join(dir, name);
      writeFileSync(file, framed([first, second, protobufRequest(trialA2)]));
      const issues: InputError[] = [];
      const { items, error } = await drain(fromOtlpFiles([file], { onIssue: (i) => issues.push(i) }));
      expect(error).toBeNull();
      expect(items.map((i) => [i.trial.id, i.trial.metadata['otlp_span_count']])).toEqual([
        ['run:conv-B', 2],
        ['run:conv-A', 6],
      ]);
      return { first, second, file, issues };
    }

    it('with onIssue, a corrupt frame in the middle is reported and skipped; the frames after it are read', async () => {
      const { first, second, file, issues } = await damagedMiddle('corrupt-middle.binpb', (second) => {
        second[1] = 0xff;
      });
      expect(issues).toHaveLength(1);
      const offset = issues[0]?.offset as number;
      expect(offset).toBeGreaterThanOrEqual(4 + first.length + 4);
      expect(offset).toBeLessThan(4 + first.length + 4 + second.length);
      expect(issues[0]?.file).toBe(file);
    });

    it('a corrupt part found only when first read (resource attributes, read for the trial keys): reported with its file offset', async () => {
      let at = -1;
      const { first, file, issues } = await damagedMiddle('corrupt-resource.binpb', (second) => {
        // the resource's attribute `service.name`: its value's tag (field 2, length-delimited) made
        // wire type 7. The request's structure still scans; the resource's attributes do not decode.
        at = second.indexOf('service.name') + 'service.name'.length;
        expect(second[at]).toBe(0x12);
        second[at] = 0x17;
      });
      const ended = await drain(fromOtlpFiles([file]));
      expect(ended.items.map((i) => i.trial.id)).toEqual(['run:conv-B']);
      expect(ended.error).toBeInstanceOf(InputError);
      expect(ended.error).toMatchObject({ file });
      expect(issues.map((i) => [i.file, i.diagnostic])).toEqual([[file, 'skipped_payload']]);
      expect(issues[0]?.reason).toMatch(/; the rest of this request skipped$/);
      const offset = issues[0]?.offset as number;
      expect(offset).toBeGreaterThanOrEqual(4 + first.length + 4);
      expect(offset).toBeLessThanOrEqual(4 + first.length + 4 + at + 1); // at the tag, or just past it
      expect(issues[0]?.message).toContain(`byte ${offset}`);
    });

    it('with onIssue, a bad JSON line is reported with its line and skipped; a cut-off file still ends the stream', async () => {
      const file = join(dir, 'bad-middle.jsonl');
      const text = jsonLine(trialA1);
      writeFileSync(file, `${jsonLine(trialB)}\n${text.slice(0, 50)}\n${text}\n`);
      const issues: InputError[] = [];
      const { items, error } = await drain(fromOtlpFiles([file], { onIssue: (i) => issues.push(i) }));
      expect(error).toBeNull();
      expect(items.map((i) => i.trial.id)).toEqual(['run:conv-B', 'run:conv-A']);
      expect(issues.map((i) => [i.file, i.line])).toEqual([[file, 2]]);

      const cut = join(dir, 'cut-middle.binpb');
      const bytes = framed([protobufRequest(trialB), protobufRequest(trialA1)]);
      writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
      const ended = await drain(fromOtlpFiles([cut], { onIssue: (i) => issues.push(i) }));
      expect(ended.error).toBeInstanceOf(InputError);
      expect(ended.items.map((i) => i.trial.id)).toEqual(['run:conv-B']);
    });

    it('a truncated gzip stream is an InputError too', async () => {
      const file = join(dir, 'cut.jsonl.gz');
      const gz = gzipSync(`${jsonLine(trialB)}\n${jsonLine(trialA1)}\n`);
      writeFileSync(file, gz.subarray(0, gz.length - 8));
      const { error } = await drain(fromOtlpFiles([file]));
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe(file);
    });

    it('a missing file is an InputError naming it', async () => {
      const { items, error } = await drain(fromOtlpFiles([join(dir, 'nope.jsonl')]));
      expect(items).toEqual([]);
      expect(error).toBeInstanceOf(InputError);
    });
  });
});
