import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

// Threat: bytes that are not UTF-8 silently rewritten, negative token counts silently summed.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-diagnostics-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readJsonl = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

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
