import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

// Threat: a failed or cut-off run replacing a good bundle with an empty or partial one.
const GYM = 'test/fixtures/gym/rollouts.jsonl';
const rows = readFileSync(GYM, 'utf8').trimEnd().split('\n');
const BUNDLE = ['run.json', 'summary.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl', 'metadata.json'];

let dir: string;
let out: string;
let good: Map<string, string>;
const snapshot = (d: string): Map<string, string> =>
  new Map(BUNDLE.map((f) => [f, readFileSync(join(d, f), 'utf8')]));
const score = (input: string, extra: string[] = []) =>
  runCli(['score', input, '--format', 'gym', '--out', out, '--no-report', '--no-progress', ...extra]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-keep-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  out = join(dir, `run-${Math.random().toString(16).slice(2)}`);
  const r = await score(GYM, ['--run-id', 'GOOD']);
  expect(r.code, r.stderr).toBe(0);
  good = snapshot(out);
});

describe('a failed run never destroys the previous bundle', () => {
  it('bad input (exit 2): the bundle is left as it was and nothing is written beside it', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"this is": not json\n');
    const r = await score(bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl: line 1/);
    expect(snapshot(out)).toEqual(good);
    expect(existsSync(`${out}.incomplete`)).toBe(false);
    expect(readdirSync(out).filter((f) => f.startsWith('.evalstream-staging-'))).toEqual([]);
  });

  it('an empty input (exit 2): the bundle is left as it was', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const r = await score(empty);
    expect(r.code).toBe(2);
    expect(snapshot(out)).toEqual(good);
  });

  it('a cut-off input (exit 1): the partial result goes beside the bundle and the message says where', async () => {
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, `${rows[0]}\n${rows[1]}\n${(rows[2] as string).slice(0, 200)}`);
    const r = await score(cut, ['--run-id', 'PARTIAL']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `incomplete: ${out}.incomplete holds the 2 trials read before this point (${out} keeps its previous bundle)`,
    );
    expect(snapshot(out)).toEqual(good);
    const partial = snapshot(`${out}.incomplete`);
    expect(partial.get('trials.jsonl')?.trimEnd().split('\n')).toHaveLength(2);
    expect(partial.get('run.json')).toContain('"PARTIAL"');
  });

  it('a successful run still replaces the bundle', async () => {
    const r = await score(GYM, ['--run-id', 'NEXT']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'run.json'), 'utf8')).toContain('"NEXT"');
  });

  it('a first run that is cut off still writes its partial bundle where asked', async () => {
    const fresh = join(dir, 'fresh');
    const cut = join(dir, 'cut1.jsonl');
    writeFileSync(cut, `${rows[0]}\n${(rows[1] as string).slice(0, 100)}`);
    const r = await runCli(['score', cut, '--format', 'gym', '--out', fresh, '--no-report', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`incomplete: ${fresh} holds the 1 trial read before this point\n`);
    expect(readFileSync(join(fresh, 'trials.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('staging directories of a killed run', () => {
  it('are removed by the next run; those of a live writer are kept', async () => {
    const dead = join(out, '.evalstream-staging-999999999-0badc0de');
    const legacy = join(out, '.evalstream-staging-0badc0de');
    const live = join(out, `.evalstream-staging-${process.ppid}-0badc0de`);
    for (const d of [dead, legacy, live]) {
      mkdirSync(d);
      writeFileSync(join(d, 'scores.jsonl'), '{"half a ro');
    }
    const r = await score(GYM);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
