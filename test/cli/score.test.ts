import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const HARBOR = 'test/fixtures/harbor/job-2026-01-05';
const GYM = 'test/fixtures/gym/rollouts.jsonl';
const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-score-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evalstream score', () => {
  it('scores a Harbor job with evidence-chosen metrics and writes the bundle and report', async () => {
    const out = join(dir, 'harbor');
    const r = await runCli(['score', HARBOR, '--out', out, '--run-id', 'R1', '--no-progress']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^run R1: 3 trials, 8 scores\n/);
    expect(r.stdout).toContain(`wrote ${out}`);
    for (const f of [
      'run.json',
      'summary.json',
      'scores.jsonl',
      'trials.jsonl',
      'tasks.jsonl',
      'metadata.json',
      'report.html',
    ]) {
      expect(existsSync(join(out, f))).toBe(true);
    }
    const scores = lines(join(out, 'scores.jsonl')).map((l) => JSON.parse(l) as { id: string });
    expect(scores).toHaveLength(8);
    expect(scores.every((s) => s.id.startsWith('R1:'))).toBe(true);
    const tasks = lines(join(out, 'tasks.jsonl')).map(
      (l) => JSON.parse(l) as { id: string; metrics: { type: string }[] },
    );
    expect(tasks.map((t) => t.metrics.map((m) => m.type).join(','))).toEqual([
      'trajectory_stats,token_usage,tool_call_efficiency',
      'trajectory_stats,token_usage,tool_call_efficiency,verifier_reward',
      'verifier_reward',
    ]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      scores: { scores: { name: string; mean: number | null; count: number }[] };
    };
    expect(summary.scores.scores.find((s) => s.name === 'verifier_reward.reward')).toMatchObject({
      mean: 1,
      count: 2,
    });
  });

  it('uses a config file: its metrics, labels and run id; --concurrency overrides it', async () => {
    const cfg = join(dir, 'gym.config.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        runId: 'G1',
        labels: { suite: 'gym' },
        metrics: { default: ['verifier_reward', 'usage'] },
      }),
    );
    const out = join(dir, 'gym');
    const r = await runCli([
      'score',
      GYM,
      '--config',
      cfg,
      '--out',
      out,
      '--no-report',
      '--concurrency',
      '2',
      '--no-progress',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^run G1: 4 trials, 8 scores\n/);
    // Rewards 1, 0, 1, true: `true` passes as a continuous score and is kept as is (coerce-and-discard),
    // so it lands in nan_count: mean over 1, 0, 1.
    expect(r.stdout).toMatch(/verifier_reward\.reward\s+0\.666667\s+3\s+1\s+4\/4\n/);
    expect(JSON.parse(readFileSync(join(out, 'metadata.json'), 'utf8'))).toMatchObject({
      labels: { suite: 'gym' },
    });
    expect(existsSync(join(out, 'report.html'))).toBe(false);
  });

  it('exit 1 and a partial bundle when an input is cut off after some trials', async () => {
    const cut = join(dir, 'cut.jsonl');
    const rows = lines(GYM);
    writeFileSync(cut, `${rows[0]}\n${rows[1]}\n${(rows[2] as string).slice(0, 200)}`);
    const out = join(dir, 'cut');
    const r = await runCli(['score', cut, '--format', 'gym', '--out', out, '--no-report', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cut\.jsonl: line 3: /);
    expect(r.stderr).toContain(`incomplete: ${out} holds the 2 trials read before this point`);
    expect(lines(join(out, 'trials.jsonl'))).toHaveLength(2);
  });

  it('exit 1 when failFast meets a metric error', async () => {
    const cfg = join(dir, 'failfast.config.mjs');
    writeFileSync(
      cfg,
      `export default { scoring: { failFast: true }, metrics: { default: [{ type: 'boom', outputSpec: () => [{ name: 's', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }], computeScores: async () => { throw new Error('judge unavailable'); } }] } };\n`,
    );
    const r = await runCli([
      'score',
      GYM,
      '--config',
      cfg,
      '--out',
      join(dir, 'ff'),
      '--no-report',
      '--no-progress',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('evalstream: run failed after 0 trials: judge unavailable\n');
  });

  it('exit 2 for a bad config, naming the file and the field', async () => {
    const cfg = join(dir, 'bad.json');
    writeFileSync(
      cfg,
      JSON.stringify({ metrics: { default: [{ name: 'contains', options: { mode: 'most' } }] } }),
    );
    const r = await runCli(['score', GYM, '--config', cfg, '--out', join(dir, 'bad'), '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^evalstream: ${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: metrics\\.default\\[0\\]\\.options\\.mode: `,
      ),
    );
    expect(existsSync(join(dir, 'bad'))).toBe(false);
  });

  it('exit 2 for bad usage and unreadable inputs', async () => {
    expect((await runCli(['score', join(dir, 'nope.jsonl'), '--no-progress'])).code).toBe(2);
    expect((await runCli(['score', GYM, '--concurrency', '0'])).code).toBe(2);
    expect((await runCli(['score', GYM, '--engine', 'sqlite'])).code).toBe(2);
    expect((await runCli(['score'])).code).toBe(2);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(
      (await runCli(['score', empty, '--format', 'gym', '--out', join(dir, 'empty'), '--no-progress'])).code,
    ).toBe(2);
  });

  it('--engine duckdb also writes a DuckDB store', async () => {
    const out = join(dir, 'duck');
    const db = join(dir, 'runs.duckdb');
    const r = await runCli([
      'score',
      GYM,
      '--engine',
      'duckdb',
      '--db',
      db,
      '--out',
      out,
      '--no-report',
      '--no-progress',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${out} and ${db}`);
    expect(existsSync(db)).toBe(true);
  });
});
