import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { gymRolloutsText } from '../stats/gym-rollouts-text.js';

let dir: string;
let config: string;
// 9 tasks × 4 repeats of continuous rewards (percentiles, pass@k and usage all depend on every trial)
const REWARDS = Array.from({ length: 9 }, (_, t) => [0, 1, 2, 3].map((r) => ((t * 37 + r * 11) % 17) / 16));
const lines = gymRolloutsText(REWARDS).trimEnd().split('\n');

async function score(input: string, out: string): Promise<void> {
  const r = await runCli([
    'score',
    input,
    '--config',
    config,
    '--run-id',
    'R',
    '--out',
    out,
    '--no-report',
    '--no-progress',
  ]);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-merge-'));
  config = join(dir, 'c.json');
  writeFileSync(config, JSON.stringify({ metrics: { default: ['verifier_reward', 'usage'] } }));
  writeFileSync(join(dir, 'all.jsonl'), lines.join('\n') + '\n');
  await score(join(dir, 'all.jsonl'), join(dir, 'one'));
  // three consecutive pieces that cut through tasks (task 2's trials are split between shards 1 and 2)
  const cuts = [0, 10, 23, lines.length];
  for (let s = 0; s < 3; s++) {
    writeFileSync(join(dir, `part-${s}.jsonl`), lines.slice(cuts[s], cuts[s + 1]).join('\n') + '\n');
    await score(join(dir, `part-${s}.jsonl`), join(dir, `shard-${s}`));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (bundle: string, file: string) => readFileSync(join(dir, bundle, file));

describe('evalstream merge', () => {
  it('merges 3 shards into a bundle whose summary.json is byte-identical to scoring in one process', async () => {
    const r = await runCli([
      'merge',
      join(dir, 'shard-0'),
      join(dir, 'shard-1'),
      join(dir, 'shard-2'),
      '--out',
      join(dir, 'merged'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^run R: 3 shards merged, 9 tasks, 36 trials, 72 scores\n/);
    const summary = read('merged', 'summary.json');
    expect(summary.toString('utf8')).toContain('"p50"');
    expect(summary).toEqual(read('one', 'summary.json'));
    for (const file of ['trials.jsonl', 'tasks.jsonl', 'stats.json', 'run.json'])
      expect(read('merged', file).toString('utf8'), file).toBe(read('one', file).toString('utf8'));
    // the same scores in the same order; only `metadata.row_index` (the task's position in the input
    // its shard was scored from) differs
    const scores = (bundle: string) =>
      read(bundle, 'scores.jsonl')
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => {
          const row = JSON.parse(l) as { metadata: Record<string, unknown> };
          delete row.metadata['row_index'];
          return row;
        });
    expect(scores('merged')).toEqual(scores('one'));
    expect(existsSync(join(dir, 'merged', 'report.html'))).toBe(true);
  });

  it('names the trials that are in more than one shard (exit 2) and leaves no output', async () => {
    const out = join(dir, 'overlap');
    const r = await runCli([
      'merge',
      join(dir, 'shard-0'),
      join(dir, 'shard-1'),
      join(dir, 'shard-0'),
      '--out',
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^evalstream: 10 trials are in more than one shard: \(0, 0-0\) in .*shard-0 and .*shard-0; \(0, 0-1\)/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a shard that ends in a cut-off line and an output directory that is not empty', async () => {
    const cut = join(dir, 'cut');
    await score(join(dir, 'part-0.jsonl'), cut);
    const scores = readFileSync(join(cut, 'scores.jsonl'), 'utf8');
    writeFileSync(join(cut, 'scores.jsonl'), scores.slice(0, scores.length - 20));
    const r = await runCli(['merge', cut, join(dir, 'shard-1'), '--out', join(dir, 'from-cut')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cut[/\\]scores\.jsonl: line 20: cut off \(the shard is incomplete\)/);
    const busy = await runCli(['merge', join(dir, 'shard-1'), '--out', join(dir, 'one')]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('the output directory exists and is not empty');
  });
});
