/**
 * `evalstream score --workers N`: the bundle written with worker threads is byte for byte the one a
 * single pass writes (summary.json, scores.jsonl, trials.jsonl, tasks.jsonl) for every input kind,
 * including ATIF runs cut into several chunks whose trajectory ids repeat across chunks and whose
 * tasks span chunks; a metric error stays a failed score; a worker that crashes or exits fails the
 * run with exit 1 and a message naming it.
 */
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli/run-cli.js';

const FILES = ['summary.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl'];
const ATIF_DIR = 'test/fixtures/atif';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-workers-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

let runs = 0;
async function score(inputs: string[], workers: number, ...extra: string[]) {
  const out = join(root, `run-${(runs += 1)}`);
  const r = await runCli([
    'score',
    ...inputs,
    '--out',
    out,
    '--run-id',
    'R1',
    '--no-report',
    '--no-progress',
    '--workers',
    String(workers),
    ...extra,
  ]);
  return { ...r, out };
}

/** Scores `inputs` with one worker and with `workers`; both succeed and write the same bytes. */
async function expectSameBundles(inputs: string[], workers: number[], ...extra: string[]): Promise<string> {
  const one = await score(inputs, 1, ...extra);
  expect(one.code, one.stderr).toBe(0);
  for (const n of workers) {
    const many = await score(inputs, n, ...extra);
    expect(many.code, many.stderr).toBe(0);
    expect(many.stdout.replace(many.out, one.out)).toBe(one.stdout);
    for (const file of FILES) {
      expect(readFileSync(join(many.out, file), 'utf8'), `${file} with --workers ${n}`).toBe(
        readFileSync(join(one.out, file), 'utf8'),
      );
    }
  }
  return one.out;
}

/**
 * 80 ATIF files (three chunks): copies of the fixtures whose trajectory ids repeat every 23 files,
 * so later chunks number on from ids taken in earlier ones, and whose 5 tasks span every chunk.
 */
function manyAtifFiles(): string {
  const dir = join(root, 'many-atif');
  mkdirSync(dir, { recursive: true });
  const sources = readdirSync(ATIF_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(ATIF_DIR, f), 'utf8')) as Record<string, unknown>);
  for (let i = 0; i < 80; i += 1) {
    const t = structuredClone(sources[i % sources.length]) as Record<string, unknown>;
    t['trajectory_id'] = `traj-${i % 23}`;
    t['extra'] = { ...((t['extra'] as object | undefined) ?? {}), task_id: `task-${i % 5}` };
    writeFileSync(join(dir, `t${String(i).padStart(3, '0')}.json`), JSON.stringify(t));
  }
  return dir;
}

// each run starts worker threads that load the TypeScript sources: slow on a loaded machine
const SLOW = 300_000;

describe('score --workers', () => {
  it(
    'writes the same bundle as one worker for Harbor jobs, ATIF files, a bundle and Gym rollouts',
    async () => {
      await expectSameBundles(['examples/harbor-job'], [2]);
      await expectSameBundles(['test/fixtures/harbor/job-2026-01-05'], [2]);
      await expectSameBundles([ATIF_DIR], [2]);
      await expectSameBundles(['examples/sparse-run'], [2]);
      await expectSameBundles(['test/fixtures/gym/rollouts.jsonl'], [2]);
      await expectSameBundles(['test/fixtures/otlp/samples'], [2]);
    },
    SLOW,
  );

  it(
    'numbers repeated ATIF trajectory ids across chunks and plans shared tasks as one pass does',
    async () => {
      const dir = manyAtifFiles();
      const out = await expectSameBundles([dir, 'examples/harbor-job'], [2, 3]);
      const ids = readFileSync(join(out, 'trials.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id);
      expect(ids.filter((id) => id.startsWith('traj-0'))).toEqual([
        'traj-0',
        'traj-0-2',
        'traj-0-3',
        'traj-0-4',
      ]);
    },
    SLOW,
  );

  it(
    'keeps a metric error as a failed score, as one worker does',
    async () => {
      const cfg = join(root, 'flaky.config.mjs');
      writeFileSync(
        cfg,
        `export default { metrics: { default: [{ type: 'flaky', outputSpec: () => [{ name: 's', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }], computeScores: async (input) => { const n = (input.candidate.output_text ?? '').length; if (n % 2 === 1) throw new Error('judge unavailable'); return { outputs: [{ name: 's', value: n }] }; } }] } };\n`,
      );
      const out = await expectSameBundles([manyAtifFiles()], [2], '--config', cfg);
      const scores = readFileSync(join(out, 'scores.jsonl'), 'utf8');
      expect(scores).toContain('judge unavailable');
      expect(scores).toContain('"status": "completed"');
    },
    SLOW,
  );

  it(
    'fails the run with exit 1 when a worker crashes or exits, naming the worker',
    async () => {
      const crash = join(root, 'crash.config.mjs');
      writeFileSync(
        crash,
        `export default { metrics: { default: [{ type: 'crash', outputSpec: () => [{ name: 's', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }], computeScores: async () => { setTimeout(() => { throw new Error('out of GPU memory'); }, 0); return { outputs: [{ name: 's', value: 1 }] }; } }] } };\n`,
      );
      const crashed = await score([manyAtifFiles()], 2, '--config', crash);
      expect(crashed.code).toBe(1);
      expect(crashed.stderr).toMatch(
        /run failed after \d+ trials: scoring worker [12] failed: out of GPU memory/,
      );

      const exit = join(root, 'exit.config.mjs');
      writeFileSync(
        exit,
        `export default { metrics: { default: [{ type: 'exit', outputSpec: () => [{ name: 's', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }], computeScores: async () => process.exit(7) }] } };\n`,
      );
      const exited = await score([manyAtifFiles()], 2, '--config', exit);
      expect(exited.code).toBe(1);
      expect(exited.stderr).toMatch(/scoring worker [12] stopped \(exit code 7\)/);
    },
    SLOW,
  );

  it(
    'refuses --db, which it does not write yet (exit 2)',
    async () => {
      const r = await score([ATIF_DIR], 2, '--db', join(root, 'store.duckdb'));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--workers writes run bundles only');
    },
    SLOW,
  );
});
