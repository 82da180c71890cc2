import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromHarborJob } from '../../src/sources/from-harbor-job.js';
import { runCli } from '../cli/run-cli.js';

// Threat: a Harbor job whose symlinks lead to files outside it, embedding them in the bundle and report.
const JOB = 'test/fixtures/harbor/job-2026-01-05';
const HELLO = 'hello-world__Ab3dE9f';
const FIX = 'fix-bug__Q9rT2wX';
const SECRET = 'TOP-SECRET-CONTENT';

let dir: string;
let job: string;
let outside: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-symlink-'));
  outside = join(dir, 'outside');
  mkdirSync(outside);
  const trajectory = JSON.parse(readFileSync(join(JOB, HELLO, 'agent', 'trajectory.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  writeFileSync(join(outside, 'trajectory.json'), JSON.stringify({ ...trajectory, session_id: SECRET }));
  writeFileSync(join(outside, 'run.jsonl'), readFileSync(join(JOB, FIX, 'traces', 'run.jsonl')));
  cpSync(join(JOB, HELLO), join(outside, 'trial'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  job = join(dir, `job-${Math.random().toString(16).slice(2)}`);
  cpSync(JOB, job, { recursive: true });
});

const read = (root: string) => lastValueFrom(fromHarborJob(root).pipe(toArray()));

describe('a symlink leading outside the job root is refused, naming the link', () => {
  it.each([
    [
      'an evidence file (agent/trajectory.json)',
      () => [join(outside, 'trajectory.json'), join(job, HELLO, 'agent', 'trajectory.json')],
    ],
    [
      'a trace file (traces/*.jsonl)',
      () => [join(outside, 'run.jsonl'), join(job, FIX, 'traces', 'run.jsonl')],
    ],
    ['a trial directory', () => [join(outside, 'trial'), join(job, 'zz-linked-trial')]],
    ['a directory on the way (agent/)', () => [join(outside), join(job, HELLO, 'agent')]],
  ])('%s', async (_what, paths) => {
    const [target, link] = paths() as [string, string];
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link);
    await expect(read(job)).rejects.toThrow(/refused: a symbolic link leads outside the directory read/);
    await expect(read(job)).rejects.toThrow(link);

    const out = join(dir, `out-${Math.random().toString(16).slice(2)}`);
    const r = await runCli(['score', job, '--out', out, '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(link);
    expect(r.stderr).toContain('refused: a symbolic link leads outside the directory read');
    for (const file of ['trials.jsonl', 'report.html']) {
      const text = (() => {
        try {
          return readFileSync(join(out, file), 'utf8');
        } catch {
          return '';
        }
      })();
      expect(text).not.toContain(SECRET);
    }
  });
});

describe('symlinks inside the job root are followed', () => {
  it('a symlinked trial directory is read as a trial', async () => {
    mkdirSync(join(job, 'archive'));
    renameSync(join(job, HELLO), join(job, 'archive', HELLO));
    symlinkSync(join(job, 'archive', HELLO), join(job, HELLO));
    const items = await read(job);
    expect(items.map((i) => i.trial.id).sort()).toEqual((await read(JOB)).map((i) => i.trial.id).sort());
  });

  it('a symlinked trace file is read as its target', async () => {
    const traces = join(job, FIX, 'traces');
    renameSync(join(traces, 'run.jsonl'), join(job, 'shared-run.jsonl'));
    symlinkSync(join(job, 'shared-run.jsonl'), join(traces, 'run.jsonl'));
    const [linked, plain] = await Promise.all([read(job), read(JOB)]);
    const fix = (items: typeof linked) => items.find((i) => i.trial.id.startsWith('fix-bug'))?.trial;
    expect(fix(linked)?.output).toEqual(fix(plain)?.output);
    expect(Object.keys(fix(linked)?.evidence?.descriptors ?? {})).toContain('trace:otlp');
  });
});

describe('a directory of input files', () => {
  const ATIF = 'test/fixtures/atif/nemo-agent-toolkit__exmp02_atif.json';
  const inspectIds = async (input: string) => {
    const r = await runCli(['inspect', '--json', input]);
    return {
      ...r,
      ids:
        r.stdout.trim() === ''
          ? []
          : r.stdout
              .trim()
              .split('\n')
              .map((l) => (JSON.parse(l) as { trial_id: string }).trial_id),
    };
  };

  it('follows links inside it (a directory loop is read once) and refuses one leading outside', async () => {
    const inputs = join(dir, `inputs-${Math.random().toString(16).slice(2)}`);
    mkdirSync(join(inputs, 'real'), { recursive: true });
    cpSync(ATIF, join(inputs, 'real', 'a.json'));
    symlinkSync(join(inputs, 'real', 'a.json'), join(inputs, 'b.json'));
    symlinkSync(inputs, join(inputs, 'real', 'loop'));
    const inside = await inspectIds(inputs);
    expect(inside.code, inside.stderr).toBe(0);
    expect(inside.ids, inside.stdout).toHaveLength(2);

    symlinkSync(join(outside, 'trajectory.json'), join(inputs, 'c.json'));
    const out = await inspectIds(inputs);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${join(inputs, 'c.json')}: refused: a symbolic link leads outside`);
    expect(out.stdout).not.toContain(SECRET);
  });
});
