import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { readEmbedded } from '../report/fixtures/read-embedded.js';

// Threat: the input diagnostics of a run lost or hidden once its bundle is read again (report,
// summarize, merge, inspect, compare, score of a bundle), and a corrupt diagnostics.jsonl read as if
// it were sound.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-bundle-diagnostics-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readLines = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/**
 * An ATIF file `<name>.atif.json` whose second step carries `probe` and the bytes 0xff 0xfe in its
 * message and says `prompt_tokens: -5`: three diagnostics.
 */
function atifFile(name: string, probe = ''): string {
  const doc = {
    schema_version: 'ATIF-v1.6',
    session_id: name,
    agent: { name: 'a', version: '1' },
    steps: [
      { step_id: 1, source: 'user', message: 'hi' },
      {
        step_id: 2,
        source: 'agent',
        message: `${probe}MARK`,
        metrics: { prompt_tokens: -5, completion_tokens: 7 },
      },
    ],
  };
  const text = Buffer.from(JSON.stringify(doc, null, 1));
  const at = text.indexOf('MARK');
  const path = join(dir, `${name}.atif.json`);
  writeFileSync(
    path,
    Buffer.concat([text.subarray(0, at), Buffer.from([0xff, 0xfe]), text.subarray(at + 4)]),
  );
  return path;
}

async function scored(name: string, ...extra: string[]): Promise<string> {
  const out = join(dir, `bundle-${name}`);
  const r = await runCli(['score', ...extra, '--out', out, '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe('report.html shows the input diagnostics', () => {
  it('score: a count in the header, kind and place per trial row, the list in the drill-down', async () => {
    const file = atifFile('r1');
    const out = await scored('report', file, atifFile('r2'));
    const { data, trials } = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    expect(data.counts.diagnostics).toBe(6);
    expect(data.counts.diagnosticsByCode).toEqual([
      ['invalid_utf8', 4],
      ['negative_token_count', 2],
    ]);
    expect(data.trials.diagnosticRows).toEqual([0, 1]);
    expect(data.trials.diagnosticCount).toEqual([3, 3]);
    const bytes = readFileSync(file);
    const offset = bytes.indexOf(0xff);
    const line = bytes.subarray(0, offset).toString('latin1').split('\n').length;
    expect(data.trials.diagnosticText[0]).toBe(
      `invalid_utf8 at ${file}:${line} (byte ${offset}): steps[1].message; ` +
        `invalid_utf8 at ${file}:${line} (byte ${offset + 1}): steps[1].message; +1 more`,
    );
    expect(trials[0]?.diagnostics).toEqual([
      [
        'invalid_utf8',
        `${file}:${line} (byte ${offset}): steps[1].message`,
        'byte 0xff is not UTF-8: read as U+FFFD',
      ],
      [
        'invalid_utf8',
        `${file}:${line} (byte ${offset + 1}): steps[1].message`,
        'byte 0xfe is not UTF-8: read as U+FFFD',
      ],
      [
        'negative_token_count',
        `${file}: steps[1].metrics.prompt_tokens`,
        'prompt_tokens is -5: left out of the token totals',
      ],
    ]);
  });

  it('report <bundle> reads diagnostics.jsonl and shows the same', async () => {
    const out = await scored('report-again', atifFile('r3'));
    const first = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    const target = join(dir, 'again.html');
    const r = await runCli(['report', out, '--out', target]);
    expect(r.code, r.stderr).toBe(0);
    const again = readEmbedded(readFileSync(target, 'utf8'));
    expect(again.data.counts.diagnostics).toBe(3);
    expect(again.data.trials.diagnosticText).toEqual(first.data.trials.diagnosticText);
    expect(again.trials[0]?.diagnostics).toEqual(first.trials[0]?.diagnostics);
  });

  it('a run without diagnostics has none in its report', async () => {
    const clean = join(dir, 'clean.atif.json');
    writeFileSync(
      clean,
      JSON.stringify({
        schema_version: 'ATIF-v1.6',
        session_id: 'clean',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'agent', message: 'ok' }],
      }),
    );
    const out = await scored('clean', clean);
    const { data, trials } = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    expect(data.counts.diagnostics).toBe(0);
    expect(data.trials.diagnosticRows).toEqual([]);
    expect(trials[0]?.diagnostics).toBeUndefined();
  });
});

describe('a bundle read as input keeps its diagnostics', () => {
  it('summarize --out copies diagnostics.jsonl and its report shows them', async () => {
    const out = await scored('summarize', atifFile('s1'));
    const copy = join(dir, 'summarized');
    const r = await runCli(['summarize', out, '--out', copy]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(copy, 'diagnostics.jsonl'), 'utf8')).toBe(
      readFileSync(join(out, 'diagnostics.jsonl'), 'utf8'),
    );
    const { data } = readEmbedded(readFileSync(join(copy, 'report.html'), 'utf8'));
    expect(data.counts.diagnostics).toBe(3);
  });

  it('merge writes the union of the shards’ diagnostics, in shard order', async () => {
    const a = await scored('shard-a', atifFile('m1'));
    const b = await scored('shard-b', atifFile('m2'));
    const merged = join(dir, 'merged');
    const r = await runCli(['merge', a, b, '--out', merged]);
    expect(r.code, r.stderr).toBe(0);
    expect(readLines(join(merged, 'diagnostics.jsonl'))).toEqual([
      ...readLines(join(a, 'diagnostics.jsonl')),
      ...readLines(join(b, 'diagnostics.jsonl')),
    ]);
    const { data } = readEmbedded(readFileSync(join(merged, 'report.html'), 'utf8'));
    expect(data.counts.diagnostics).toBe(6);
    expect(data.trials.diagnosticRows).toEqual([0, 1]);
  });

  it('inspect <bundle> prints them; score <bundle> writes them again', async () => {
    const file = atifFile('i1');
    const out = await scored('inspect', file);
    const text = await runCli(['inspect', out]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `diagnostic negative_token_count: ${file}: steps[1].metrics.prompt_tokens: prompt_tokens is -5`,
    );
    const again = join(dir, 'rescored');
    const r = await runCli(['score', out, '--out', again, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    expect(readLines(join(again, 'diagnostics.jsonl'))).toEqual(readLines(join(out, 'diagnostics.jsonl')));
  });

  it('compare names how many each bundle has', async () => {
    const a = await scored('compare-a', atifFile('c1'));
    const b = await scored('compare-b', atifFile('c2'));
    const r = await runCli(['compare', a, b]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 input diagnostics in diagnostics.jsonl');
  });
});

/** An OTLP/JSON line of one span; `traceId` '' leaves the id out. */
const spanLine = (traceId: string, spanId: string): string =>
  JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                ...(traceId === '' ? {} : { traceId }),
                spanId,
                name: 'invoke_agent',
                startTimeUnixNano: '1760000000000000000',
                endTimeUnixNano: '1760000001000000000',
              },
            ],
          },
        ],
      },
    ],
  });

describe('problems of the input that attach to no trial are rows of no trial', () => {
  /** A dump whose line 2 does not parse and whose line 4 is a span without a trace id. */
  const dump = (name: string, trace = 'a'): string => {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(
      path,
      [
        spanLine(`0${trace.repeat(31)}`, 'b7ad6b7169203331'),
        '{"resourceSpans": [',
        spanLine(`1${trace.repeat(31)}`, 'b7ad6b7169203332'),
        spanLine('', 'b7ad6b7169203333'),
      ].join('\n') + '\n',
    );
    return path;
  };
  const noTrial = (out: string): Record<string, unknown>[] =>
    readLines(join(out, 'diagnostics.jsonl'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((row) => row['trial_id'] === null);

  it('score writes them to diagnostics.jsonl and counts them in the report; the run goes on', async () => {
    const file = dump('input-rows');
    const out = await scored('input-rows', file);
    expect(readLines(join(out, 'trials.jsonl'))).toHaveLength(2);
    expect(noTrial(out)).toEqual([
      {
        code: 'skipped_payload',
        field: '',
        file,
        line: 2,
        message: expect.stringMatching(/^invalid JSON: .*; skipped$/) as unknown,
        offset: null,
        task_id: null,
        trial_id: null,
      },
      {
        code: 'invalid_id_spans',
        field: 'traceId',
        file,
        line: 4,
        message:
          '1 span(s) with an invalid trace or span id (empty, all zero, or not 16 / 8 bytes) ' +
          'left out of every trial (the first here, by its traceId)',
        offset: null,
        task_id: null,
        trial_id: null,
      },
    ]);
    const { data } = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    expect(data.counts.diagnosticsByCode).toEqual([
      ['invalid_id_spans', 1],
      ['skipped_payload', 1],
    ]);
    expect(data.trials.diagnosticRows).toEqual([]);
  });

  it('report, summarize, merge and score of the bundle keep them', async () => {
    const out = await scored('input-rows-again', dump('input-rows-again'));
    const rows = readLines(join(out, 'diagnostics.jsonl'));
    expect(rows).toHaveLength(2);
    const target = join(dir, 'input-rows-again.html');
    expect((await runCli(['report', out, '--out', target])).code).toBe(0);
    expect(readEmbedded(readFileSync(target, 'utf8')).data.counts.diagnostics).toBe(2);
    const copy = join(dir, 'input-rows-summarized');
    expect((await runCli(['summarize', out, '--out', copy])).code).toBe(0);
    expect(readLines(join(copy, 'diagnostics.jsonl'))).toEqual(rows);
    const other = await scored('input-rows-other', dump('input-rows-other', 'b'));
    const merged = join(dir, 'input-rows-merged');
    const m = await runCli(['merge', out, other, '--out', merged]);
    expect(m.code, m.stderr).toBe(0);
    expect(readLines(join(merged, 'diagnostics.jsonl'))).toEqual([
      ...rows,
      ...readLines(join(other, 'diagnostics.jsonl')),
    ]);
    const again = join(dir, 'input-rows-rescored');
    const r = await runCli(['score', out, '--out', again, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    expect(readLines(join(again, 'diagnostics.jsonl'))).toEqual(rows);
  });
});

describe('a bad line in diagnostics.jsonl is an error naming file, line and field', () => {
  const corrupt = async (name: string): Promise<string> => {
    const out = await scored(name, atifFile(name));
    appendFileSync(
      join(out, 'diagnostics.jsonl'),
      '{"trial_id": "x", "task_id": "x", "code": "invalid_utf8", "message": "m", "file": "f", "line": -1, "offset": null, "field": "f"}\n',
    );
    return out;
  };

  it.each([
    ['report', (b: string) => ['report', b]],
    ['summarize', (b: string) => ['summarize', b]],
    ['inspect', (b: string) => ['inspect', b]],
    ['score', (b: string) => ['score', b, '--out', `${b}-rescored`, '--no-progress']],
  ])('%s exits 2', async (name, args) => {
    const out = await corrupt(`bad-${name}`);
    const r = await runCli(args(out));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('diagnostics.jsonl:4: line:');
  });

  it('merge exits 2 naming the shard', async () => {
    const a = await corrupt('bad-merge');
    const r = await runCli(['merge', a, '--out', join(dir, 'bad-merged')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${a}: diagnostics.jsonl:4: line:`);
    expect(existsSync(join(dir, 'bad-merged'))).toBe(false);
  });

  it('bytes that are not UTF-8 in a line are an error naming the file and line', async () => {
    const out = await scored('bad-utf8', atifFile('u1'));
    const file = join(out, 'diagnostics.jsonl');
    const lines = readFileSync(file);
    const second = lines.indexOf(0x0a) + 1;
    const at = lines.indexOf(Buffer.from('"message"'), second);
    writeFileSync(file, Buffer.concat([lines.subarray(0, at), Buffer.from([0xc3]), lines.subarray(at)]));
    const r = await runCli(['report', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`diagnostics.jsonl:2: byte ${at} is not UTF-8`);
  });
});
