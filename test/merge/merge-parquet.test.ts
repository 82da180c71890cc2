import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../../src/model/summary.js';
import { runCli } from '../cli/run-cli.js';
import { gymRolloutsText } from '../stats/gym-rollouts-text.js';

let dir: string;
const REWARDS = Array.from({ length: 9 }, (_, t) => [0, 1, 2, 3].map((r) => ((t * 37 + r * 11) % 17) / 16));
const lines = gymRolloutsText(REWARDS).trimEnd().split('\n');

// A metric with every kind of value: a continuous output with integral values (printed 1.0) and NaN,
// a discrete one (printed 1), a boolean, a label, and failed scores (the metric throws on 5 trials);
// a weighted view over two outputs.
const CONFIG = `const spec = (name, kind, valueSchema) => ({ name, description: null, kind, valueSchema, required: true });
export default {
  metrics: {
    default: [
      'verifier_reward',
      {
        type: 'mixed',
        outputSpec: () => [
          spec('cont', 'continuous', 'ContinuousScore'),
          spec('disc', 'discrete', 'DiscreteScore'),
          spec('flag', 'boolean', 'BooleanValue'),
          spec('grade', 'label', 'Label'),
        ],
        computeScores: async (input) => {
          const [t, r] = /answer (\\d+)\\.(\\d+)/.exec(input.candidate.output_text).slice(1).map(Number);
          if ((t * 4 + r) % 7 === 3) throw new Error('no score for ' + t + '.' + r);
          const k = (t * 3 + r) % 5;
          return {
            outputs: [
              { name: 'cont', value: k === 4 ? NaN : k === 0 ? 1 : k / 4 },
              { name: 'disc', value: t % 3 },
              { name: 'flag', value: r % 2 === 0 },
              { name: 'grade', value: ['A', 'B', 'C'][(t + r) % 3] },
            ],
          };
        },
      },
    ],
  },
  views: {
    default: {
      blend: {
        reducer: 'weighted_mean',
        signals: [
          { metric: 'verifier_reward', output: 'reward' },
          { metric: 'mixed', output: 'cont', weight: 2 },
        ],
      },
    },
  },
};
`;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(args);
}

async function score(input: string, out: string, db?: string): Promise<void> {
  const r = await cli(
    'score',
    input,
    '--config',
    join(dir, 'c.mjs'),
    '--run-id',
    'R',
    '--out',
    out,
    ...(db === undefined ? [] : ['--db', db]),
    '--no-report',
    '--no-progress',
  );
  expect(r.code, r.stderr).toBe(0);
}

const path = (name: string) => join(dir, name);
const read = (bundle: string, file: string) => readFileSync(join(dir, bundle, file));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-merge-parquet-'));
  writeFileSync(path('c.mjs'), CONFIG);
  writeFileSync(path('all.jsonl'), lines.join('\n') + '\n');
  await score(path('all.jsonl'), path('one'));
  // three consecutive pieces that cut through tasks, each scored into its own store, then exported
  const cuts = [0, 10, 23, lines.length];
  for (let s = 0; s < 3; s++) {
    writeFileSync(path(`part-${s}.jsonl`), lines.slice(cuts[s], cuts[s + 1]).join('\n') + '\n');
    await score(path(`part-${s}.jsonl`), path(`shard-${s}`), path(`shard-${s}.duckdb`));
    const r = await cli('export', '--db', path(`shard-${s}.duckdb`), '--parquet', path(`parquet-${s}`));
    expect(r.code, r.stderr).toBe(0);
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evalstream merge from Parquet exports and stores', () => {
  it('merges 3 Parquet exports into a bundle whose summary.json is byte-identical to one process', async () => {
    const r = await cli(
      'merge',
      path('parquet-0'),
      path('parquet-1'),
      path('parquet-2'),
      '--out',
      path('merged'),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^run R: 3 shards merged, 9 tasks, 36 trials, 72 scores\n/);
    const summary = read('merged', 'summary.json');
    expect(summary).toEqual(read('one', 'summary.json'));
    // what makes the bytes hard: int and float literals, NaN as a number, labels, booleans, failures
    const text = summary.toString('utf8');
    for (const literal of [
      '"value": 1.0,',
      '"value": 1,',
      '"value": "NaN"',
      '"value": "B"',
      '"value": true',
      '"p50"',
    ])
      expect(text, literal).toContain(literal);
    const parsed = JSON.parse(text) as Summary;
    expect(parsed.metric_coverage['mixed']?.['cont']).toMatchObject({ total: 36, failed: 5 });
    const nan = Object.values(parsed.task_metric_values)
      .flatMap((byKey) => byKey['mixed.cont'] ?? [])
      .filter((v) => v.value === 'NaN');
    expect(nan.length).toBeGreaterThan(0);
    expect(nan.every((v) => v.value_type === 'number')).toBe(true);
    for (const file of ['stats.json', 'tasks.jsonl', 'trials.jsonl', 'run.json'])
      expect(read('merged', file).toString('utf8'), file).toBe(read('one', file).toString('utf8'));
    expect(existsSync(path('merged/report.html'))).toBe(true);
  });

  it('takes stores and exports alike, a run chosen with #RUN_ID', async () => {
    const r = await cli(
      'merge',
      path('shard-0.duckdb'),
      path('parquet-1'),
      `${path('shard-2.duckdb')}#R`,
      '--out',
      path('from-stores'),
      '--no-report',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(read('from-stores', 'summary.json')).toEqual(read('one', 'summary.json'));
  });

  it('merges a store filled from an SDK bundle by summarize --engine duckdb --db', async () => {
    const db = path('sparse.duckdb');
    const loaded = await cli(
      'summarize',
      'examples/sparse-run',
      '--out',
      path('sparse'),
      '--engine',
      'duckdb',
      '--db',
      db,
      '--no-report',
    );
    expect(loaded.code, loaded.stderr).toBe(0);
    const r = await cli('merge', db, '--out', path('sparse-merged'), '--no-report');
    expect(r.code, r.stderr).toBe(0);
    expect(read('sparse-merged', 'summary.json')).toEqual(read('sparse', 'summary.json'));
  });

  it('names the trials that are in more than one shard (exit 2) and leaves no output', async () => {
    const out = path('overlap');
    const r = await cli('merge', path('parquet-0'), path('parquet-1'), path('shard-0.duckdb'), '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^evalstream: 10 trials are in more than one shard: \(0, 0-0\) in .*parquet-0 and .*shard-0\.duckdb; \(0, 0-1\)/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('exit 2 for an unknown run, a task two shards describe differently, and bundles mixed with exports', async () => {
    const unknown = await cli('merge', `${path('parquet-0')}#nope`, '--out', path('unknown'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`parquet-0#nope: no run 'nope' (runs held: R)`);
    // the same input scored with another metric list: task 2 (in both shards) is declared differently
    const other = path('other.json');
    writeFileSync(other, JSON.stringify({ metrics: { default: ['verifier_reward'] } }));
    const scored = await cli(
      'score',
      path('part-1.jsonl'),
      '--config',
      other,
      '--run-id',
      'R',
      '--out',
      path('other-shard'),
      '--db',
      path('other.duckdb'),
      '--no-report',
      '--no-progress',
    );
    expect(scored.code, scored.stderr).toBe(0);
    const conflict = await cli('merge', path('parquet-0'), path('other.duckdb'), '--out', path('conflict'));
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(
      /task '2' is described differently by the shards \(.*parquet-0, .*other\.duckdb\)/,
    );
    const mixed = await cli('merge', path('shard-0'), path('parquet-1'), '--out', path('mixed'));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('give either run bundles or Parquet exports and DuckDB stores, not both');
  });
});
