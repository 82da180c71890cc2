import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

// Threat: the same bad input answered differently by each command, or with an opaque message.
const GYM = 'test/fixtures/gym/rollouts.jsonl';
const ATIF = 'test/fixtures/atif/nemo-agent-toolkit__exmp02_atif.json';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-consistency-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, bytes: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const score = (input: string) =>
  runCli(['score', input, '--out', join(dir, `out-${Math.random()}`), '--no-progress', '--no-report']);
const inspect = (input: string) => runCli(['inspect', input]);

describe('score and inspect say the same of a bad input file', () => {
  it.each([
    ['an empty .json', () => file('empty.json', ''), /empty\.json: the file is empty/],
    ['an empty .pb', () => file('empty.pb', ''), /empty\.pb: the file is empty/],
    [
      'an empty .jsonl.gz',
      () => file('empty.jsonl.gz', gzipSync('')),
      /the file is empty \(an empty gzip stream\)/,
    ],
    [
      'a corrupt gzip',
      () => file('bad.jsonl.gz', Buffer.from('1f8b0800676172626167656761726261676521', 'hex')),
      /bad\.jsonl\.gz: byte 0: corrupt gzip: /,
    ],
    [
      'an ATIF file failing the schema',
      () => {
        const atif = JSON.parse(readFileSync(ATIF, 'utf8')) as { steps: Record<string, unknown>[] };
        (atif.steps[1] as Record<string, unknown>)['source'] = 5;
        return file('bad.atif.json', JSON.stringify(atif));
      },
      /bad\.atif\.json: not a valid ATIF trajectory at steps\[1\]\.source: /,
    ],
  ])('%s: exit 2 and a message that says what is wrong', async (_what, make, message) => {
    const path = make();
    for (const r of [await score(path), await inspect(path)]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a bad payload in the middle of an OTLP dump: a warning from both, every other trial read, exit 0', async () => {
    const span = (traceId: string) =>
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId, spanId: 'b7ad6b7169203331', name: 'x' }] }] }],
      });
    const path = file(
      'bad-line.jsonl',
      [span('0af7651916cd43dd8448eb211c80319c'), '{bad', span('1af7651916cd43dd8448eb211c80319c')].join('\n'),
    );
    for (const r of [await score(path), await inspect(path)]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: .*bad-line\.jsonl: line 2: invalid JSON: .*; skipped/);
    }
    const shown = await inspect(path);
    expect(shown.stdout).toContain('trial 0af7651916cd43dd8448eb211c80319c');
    expect(shown.stdout).toContain('trial 1af7651916cd43dd8448eb211c80319c');
  });

  it('a directory of ATIF files, one of them cut off: a warning from both, the others read, exit 0', async () => {
    const atifDir = join(dir, 'atif-dir');
    mkdirSync(atifDir);
    const text = readFileSync(ATIF, 'utf8');
    writeFileSync(join(atifDir, 'a.json'), text);
    writeFileSync(join(atifDir, 'b.json'), text.slice(0, text.length / 2));
    writeFileSync(join(atifDir, 'c.json'), text);
    const out = join(dir, 'atif-dir-out');
    const scored = await runCli(['score', atifDir, '--out', out, '--no-progress', '--no-report']);
    const shown = await inspect(atifDir);
    for (const r of [scored, shown]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: .*atif-dir\/b\.json: not valid JSON: .*; skipped/);
    }
    expect(shown.stdout.match(/^trial /gm)).toHaveLength(2);
    expect(readFileSync(join(out, 'trials.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const rows = readFileSync(join(out, 'diagnostics.jsonl'), 'utf8').trim().split('\n');
    expect(rows.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ trial_id: null, code: 'skipped_file', file: join(atifDir, 'b.json') }),
    ]);
  });

  it('an OTLP dump whose last line is cut off: exit 1 (incomplete) from both, after the trials before it', async () => {
    const span = JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'x' }],
            },
          ],
        },
      ],
    });
    const path = file('cut-line.jsonl', `${span}\n${span.slice(0, 40)}`);
    for (const r of [await score(path), await inspect(path)]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/cut-line\.jsonl: line 2: invalid JSON: .*the file is cut off/);
    }
  });

  it('a gzip cut off after some trials: exit 1 (incomplete) from both, saying it was cut off', async () => {
    const whole = gzipSync(readFileSync(GYM));
    const cut = file('cut.jsonl.gz', whole.subarray(0, whole.length - 40));
    for (const r of [await score(cut), await inspect(cut)]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cut\.jsonl\.gz: line \d+: cannot read: gzip stream cut off/);
    }
  });
});

describe('every command gives the same exit code for the same damaged bundle (README "Exit codes")', () => {
  const cutOff = (text: Buffer): Buffer => text.subarray(0, text.length - 30);
  it.each([
    [
      'a malformed trials.jsonl line',
      (text: Buffer) => {
        const lines = text.toString().split('\n');
        lines[1] = '{"broken';
        return Buffer.from(lines.join('\n'));
      },
      2,
      'trials.jsonl:2: invalid JSON',
    ],
    [
      'a byte that is not UTF-8 in trials.jsonl',
      (text: Buffer) => {
        const bad = Buffer.from(text);
        bad[bad.indexOf('"output_text": "') + 16] = 0xff;
        return bad;
      },
      2,
      'is not UTF-8 (the line is refused',
    ],
    ['a trials.jsonl whose last line is cut off (truncated)', cutOff, 1, 'the last line is cut off'],
  ] as const)(
    '%s: the same exit code (2 bad input, 1 truncated) from score, inspect, summarize and report, naming file and line',
    async (what, damage, code, message) => {
      const bundle = join(dir, `bundle-${what.replace(/\W+/g, '-')}`);
      cpSync('examples/sparse-run', bundle, { recursive: true });
      writeFileSync(join(bundle, 'trials.jsonl'), damage(readFileSync(join(bundle, 'trials.jsonl'))));
      const runs = {
        score: await score(bundle),
        inspect: await inspect(bundle),
        summarize: await runCli(['summarize', bundle, '--out', `${bundle}-summarized`, '--no-report']),
        report: await runCli(['report', bundle, '--out', `${bundle}.html`]),
      };
      for (const [command, r] of Object.entries(runs)) {
        expect(r.code, `${command}: ${r.stderr}`).toBe(code);
        expect(r.stderr, command).toContain(message);
        expect(r.stderr, command).toMatch(/trials\.jsonl:\d+/);
      }
    },
  );
});

describe('inspect prints no terminal control characters from the inputs', () => {
  it('escapes them in the text and the --json output', async () => {
    const rows = readFileSync(GYM, 'utf8').trimEnd().split('\n');
    const row = JSON.parse(rows[0] as string) as Record<string, unknown>;
    const evil = 'ok\u001b]0;pwned\u0007\u001b[2J\u009b31m';
    const response = row['response'] as Record<string, unknown>;
    response['output_text'] = evil;
    const path = file('evil.jsonl', `${JSON.stringify(row)}\n`);
    for (const args of [[], ['--json']]) {
      const r = await runCli(['inspect', '--format', 'gym', ...args, path]);
      expect(r.code, r.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex -- no control character but the line feeds
      expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(r.stdout).toContain('ok\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m');
    }
  });
});
