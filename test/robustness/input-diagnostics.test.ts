import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { lengthDelimited } from './length-delimited.js';
import { readJsonl } from './read-jsonl.js';

// Threat: bytes that are not UTF-8 silently rewritten, negative token counts silently summed.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-diagnostics-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An ATIF file whose second step says `prompt_tokens: -5` and carries bytes 0xff 0xfe in its message. */
function atifFile(name: string): string {
  const doc = {
    schema_version: 'ATIF-v1.6',
    session_id: 's1',
    agent: { name: 'a', version: '1' },
    steps: [
      { step_id: 1, source: 'user', message: 'hi' },
      {
        step_id: 2,
        source: 'agent',
        message: 'caf\u00e9 MARK',
        metrics: { prompt_tokens: -5, completion_tokens: 7 },
      },
      { step_id: 3, source: 'agent', message: 'done', metrics: { prompt_tokens: 10, completion_tokens: 3 } },
    ],
  };
  const text = Buffer.from(JSON.stringify(doc, null, 1));
  const at = text.indexOf('MARK');
  const bytes = Buffer.concat([text.subarray(0, at), Buffer.from([0xff, 0xfe]), text.subarray(at + 4)]);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('an ATIF trajectory with invalid UTF-8 and a negative token count', () => {
  it('score: the trial is scored, the count left out of its totals, both flagged in diagnostics.jsonl', async () => {
    const file = atifFile('a.atif.json');
    const offset = readFileSync(file).indexOf(0xff);
    const out = join(dir, 'out-atif');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const [trial] = readJsonl(join(out, 'trials.jsonl'));
    expect(trial?.['measurements']).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 10,
      total_tokens: 20,
    });
    const diagnostics = readJsonl(join(out, 'diagnostics.jsonl'));
    expect(diagnostics).toEqual([
      {
        trial_id: 'a',
        task_id: 'a',
        code: 'invalid_utf8',
        message: 'byte 0xff is not UTF-8: read as U+FFFD',
        file,
        line: 17,
        offset,
        field: 'steps[1].message',
      },
      {
        trial_id: 'a',
        task_id: 'a',
        code: 'invalid_utf8',
        message: 'byte 0xfe is not UTF-8: read as U+FFFD',
        file,
        line: 17,
        offset: offset + 1,
        field: 'steps[1].message',
      },
      {
        trial_id: 'a',
        task_id: 'a',
        code: 'negative_token_count',
        message: 'prompt_tokens is -5: left out of the token totals',
        file,
        line: null,
        offset: null,
        field: 'steps[1].metrics.prompt_tokens',
      },
    ]);
    // summary.json keeps the SDK's shape: nothing of the diagnostics in it
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).not.toContain('diagnostic');
  });

  it('inspect: the diagnostics are printed with the trial, in text and --json', async () => {
    const file = atifFile('b.atif.json');
    const text = await runCli(['inspect', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('tokens in 10 out 10');
    expect(text.stdout).toContain(
      `diagnostic invalid_utf8: ${file}:17 (byte ${readFileSync(file).indexOf(0xff)}): steps[1].message: byte 0xff is not UTF-8`,
    );
    expect(text.stdout).toContain(
      `diagnostic negative_token_count: ${file}: steps[1].metrics.prompt_tokens: prompt_tokens is -5: left out of the token totals`,
    );
    const json = await runCli(['inspect', file, '--json']);
    const record = JSON.parse(json.stdout) as { diagnostics: { code: string }[] };
    expect(record.diagnostics.map((d) => d.code)).toEqual([
      'invalid_utf8',
      'invalid_utf8',
      'negative_token_count',
    ]);
  });

  it('a bundle scored again from clean input drops the old diagnostics.jsonl', async () => {
    const out = join(dir, 'out-replaced');
    const r1 = await runCli(['score', atifFile('c.atif.json'), '--out', out, '--no-progress', '--no-report']);
    expect(r1.code, r1.stderr).toBe(0);
    expect(existsSync(join(out, 'diagnostics.jsonl'))).toBe(true);
    const clean = join(dir, 'clean.atif.json');
    writeFileSync(
      clean,
      JSON.stringify({
        schema_version: 'ATIF-v1.6',
        session_id: 's2',
        agent: { name: 'a', version: '1' },
        steps: [
          { step_id: 1, source: 'agent', message: 'ok', metrics: { prompt_tokens: 1, completion_tokens: 1 } },
        ],
      }),
    );
    const r2 = await runCli(['score', clean, '--out', out, '--no-progress', '--no-report']);
    expect(r2.code, r2.stderr).toBe(0);
    expect(existsSync(join(out, 'diagnostics.jsonl'))).toBe(false);
  });
});

/** One OTLP/JSON line: an agent span and a model-call span that says `input_tokens: -7`. */
function otlpJsonLine(): Buffer {
  const span = (id: string, name: string, attrs: string): string =>
    `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"${id}","name":"${name}","kind":1,` +
    `"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000","attributes":[${attrs}]}`;
  const conversation = '{"key":"gen_ai.conversation.id","value":{"stringValue":"c1"}}';
  const text =
    `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"x"},"spans":[` +
    `${span('b7ad6b7169203331', 'invoke_agent', `${conversation},{"key":"gen_ai.operation.name","value":{"stringValue":"invoke_agent"}}`)},` +
    `${span(
      'b7ad6b7169203332',
      'chat',
      `${conversation},{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},` +
        '{"key":"gen_ai.usage.input_tokens","value":{"intValue":"-7"}},' +
        '{"key":"gen_ai.usage.output_tokens","value":{"intValue":"5"}},' +
        '{"key":"gen_ai.output.messages","value":{"stringValue":"MARK"}}',
    )}]}]}]}`;
  const at = text.indexOf('MARK');
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    Buffer.from([0x6f, 0x6b, 0xc3]),
    Buffer.from(text.slice(at + 4)),
  ]);
}

describe('an OTLP/JSON dump with invalid UTF-8 and a negative token count', () => {
  it('score: flagged with file, line, byte offset, JSON path and attribute; the count left out', async () => {
    const file = join(dir, 'dump.jsonl');
    const line = otlpJsonLine();
    writeFileSync(file, Buffer.concat([Buffer.from('\n'), line, Buffer.from('\n')]));
    const out = join(dir, 'out-otlp-json');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const [trial] = readJsonl(join(out, 'trials.jsonl'));
    expect(trial?.['measurements']).toMatchObject({ prompt_tokens: null, completion_tokens: 5 });
    expect(readJsonl(join(out, 'diagnostics.jsonl'))).toEqual([
      {
        trial_id: 'c1',
        task_id: 'c1',
        code: 'invalid_utf8',
        message:
          "span b7ad6b7169203332: byte 0xc3 is not UTF-8: read as U+FFFD (attribute 'gen_ai.output.messages')",
        file,
        line: 2,
        offset: 1 + line.indexOf(0xc3),
        field: 'resourceSpans[0].scopeSpans[0].spans[1].attributes[4].value.stringValue',
      },
      {
        trial_id: 'c1',
        task_id: 'c1',
        code: 'negative_token_count',
        message: 'span b7ad6b7169203332: gen_ai.usage.input_tokens is -7: left out of the token totals',
        file,
        line: null,
        offset: null,
        field: "attribute 'gen_ai.usage.input_tokens'",
      },
    ]);
  });
});

const field = lengthDelimited;
const attribute = (key: string, value: Buffer): Buffer => field(9, field(1, Buffer.from(key)), value);

describe('an OTLP protobuf dump with invalid UTF-8 in a span name and attribute', () => {
  it('score: each flagged with the byte offset in the file and the field', async () => {
    const badName = Buffer.from([0x63, 0x68, 0x61, 0x74, 0xff]); // "chat" + 0xff
    const badText = Buffer.concat([Buffer.from('answer '), Buffer.from([0xed, 0xa0, 0x80])]); // a surrogate
    const span = field(
      2,
      field(1, Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex')),
      field(2, Buffer.from('b7ad6b7169203331', 'hex')),
      field(5, badName),
      attribute('gen_ai.conversation.id', field(2, field(1, Buffer.from('c1')))),
      attribute('gen_ai.output.messages', field(2, field(1, badText))),
    );
    const body = field(1, field(2, span));
    // two Collector frames (a 4-byte big-endian length, then the request): an empty request, then this one
    const frames = [Buffer.alloc(0), body].map((b) => {
      const head = Buffer.alloc(4);
      head.writeUInt32BE(b.length, 0);
      return Buffer.concat([head, b]);
    });
    const bytes = Buffer.concat(frames);
    const file = join(dir, 'dump.binpb');
    writeFileSync(file, bytes);
    const out = join(dir, 'out-otlp-pb');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJsonl(join(out, 'diagnostics.jsonl'))).toEqual([
      {
        trial_id: 'c1',
        task_id: 'c1',
        code: 'invalid_utf8',
        message:
          "span b7ad6b7169203331: attribute 'gen_ai.output.messages': bytes that are not UTF-8, read as U+FFFD",
        file,
        line: null,
        offset: bytes.indexOf(Buffer.from([0xed, 0xa0, 0x80])),
        field: "Span.attributes['gen_ai.output.messages']",
      },
      {
        trial_id: 'c1',
        task_id: 'c1',
        code: 'invalid_utf8',
        message: 'span b7ad6b7169203331: Span.name: bytes that are not UTF-8, read as U+FFFD',
        file,
        line: null,
        offset: bytes.indexOf(0xff),
        field: 'Span.name',
      },
    ]);
  });
});

describe('token counts below zero elsewhere', () => {
  it('Gym rollouts: left out of the measurements, flagged with file, line and field; the bundle reads back', async () => {
    const file = join(dir, 'rollouts.jsonl');
    const lines = readFileSync('test/fixtures/gym/rollouts.jsonl', 'utf8').split('\n');
    lines[1] = (lines[1] as string).replace(/"input_tokens": \d+/, '"input_tokens": -118');
    writeFileSync(file, lines.join('\n'));
    const out = join(dir, 'out-gym');
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const trials = readJsonl(join(out, 'trials.jsonl')) as {
      id: string;
      task_id: string;
      measurements: Record<string, unknown>;
    }[];
    expect(trials[1]?.measurements['prompt_tokens']).toBeNull();
    expect(readJsonl(join(out, 'diagnostics.jsonl'))).toEqual([
      {
        trial_id: trials[1]?.id,
        task_id: trials[1]?.task_id,
        code: 'negative_token_count',
        message: 'input_tokens is -118: left out of the token totals',
        file,
        line: 2,
        offset: null,
        field: 'response.usage.input_tokens',
      },
    ]);
    // what was written is a valid bundle (its schema refuses negative counts)
    const again = await runCli(['summarize', out, '--out', join(dir, 'out-gym-again'), '--no-report']);
    expect(again.code, again.stderr).toBe(0);
  });

  it('bundle rows: a negative count in trials.jsonl is a malformed row (the SDK schema), named by file, line and field', async () => {
    const bundle = join(dir, 'bundle');
    cpSync('examples/sparse-run', bundle, { recursive: true });
    const file = join(bundle, 'trials.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[0] = (lines[0] as string).replace(/"prompt_tokens": \d+/, '"prompt_tokens": -3');
    writeFileSync(file, lines.join('\n'));
    const r = await runCli([
      'score',
      bundle,
      '--out',
      join(dir, 'out-bundle'),
      '--no-progress',
      '--no-report',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'trials.jsonl:1: measurements.prompt_tokens: Too small: expected number to be >=0',
    );
  });
});
