import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { AggregateScore, Summary } from '../../src/model/summary.js';
import { dirTexts, fixturePath, tempDir } from '../bundle/dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');
const EXAMPLE = new URL('../../examples/sparse-run', import.meta.url).pathname;

let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

async function copyOf(source: string): Promise<string> {
  const dir = join(await tempDir(), 'bundle');
  await cp(source, dir, { recursive: true });
  return dir;
}

async function summaryOf(dir: string): Promise<Summary> {
  return JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Summary;
}

function row(summary: Summary, name: string): AggregateScore {
  const found = summary.scores.scores.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no aggregate ${name}`);
  return found;
}

describe('evalstream summarize', () => {
  it('reproduces every number of the spec §9 worked example', async () => {
    const src = await copyOf(SDK_SPARSE);
    await writeFile(join(src, 'summary.json'), '{}\n'); // force a recomputation from scratch
    const out = join(await tempDir(), 'out');
    expect(await main(['summarize', src, '--out', out, '--no-report'])).toBe(0);
    const s = await summaryOf(out);

    expect(s.scores.scores.map((a) => a.name)).toEqual([
      'harbor_reward.format_ok',
      'harbor_reward.reward',
      'view.format_quality',
      'harbor_reward.format_ok.pass@1',
      'harbor_reward.format_ok.pass@2',
      'harbor_reward.reward.pass@1',
      'harbor_reward.reward.pass@2',
    ]);
    expect(row(s, 'harbor_reward.format_ok')).toMatchObject({
      count: 1,
      nan_count: 1,
      mean: 1,
      std_dev: 0,
      sample_std_dev: null,
      sample_variance: null,
    });
    const reward = row(s, 'harbor_reward.reward');
    expect(reward).toMatchObject({
      count: 2,
      nan_count: 0,
      mean: 0.5,
      std_dev: 0.5,
      variance: 0.25,
      sample_variance: 0.5,
    });
    expect(reward.sample_std_dev).toBeCloseTo(0.70710678, 8);
    const p = reward.score_type === 'range' ? reward.percentiles : null;
    expect(p).not.toBeNull();
    expect([p?.p10, p?.p20, p?.p30]).toEqual([0, 0, 0]);
    expect(p?.p40).toBeCloseTo(0.2, 12);
    expect(p?.p50).toBe(0.5);
    expect(p?.p60).toBeCloseTo(0.8, 12);
    expect([p?.p70, p?.p80, p?.p90, p?.p100]).toEqual([1, 1, 1, 1]);
    expect(row(s, 'view.format_quality')).toMatchObject({ count: 1, nan_count: 1, mean: 1 });
    expect(row(s, 'harbor_reward.format_ok.pass@1')).toMatchObject({ count: 1, nan_count: 0, mean: 1 });
    expect(row(s, 'harbor_reward.format_ok.pass@2')).toMatchObject({ count: 0, nan_count: 1, mean: null });
    expect(row(s, 'harbor_reward.reward.pass@1')).toMatchObject({ count: 1, nan_count: 0, mean: 0.5 });
    expect(row(s, 'harbor_reward.reward.pass@2')).toMatchObject({ count: 1, nan_count: 0, mean: 1 });
    expect(s.metric_coverage['harbor_reward']).toEqual({
      reward: { total: 2, scored: 2, failed: 0, missing: 0 },
      format_ok: { total: 2, scored: 1, failed: 0, missing: 1 },
    });
    expect(s.task_metric_values['A']).toEqual({
      'harbor_reward.format_ok': [{ trial_id: 'a1', value_type: 'number', value: 1 }],
      'harbor_reward.reward': [
        { trial_id: 'a1', value_type: 'number', value: 1 },
        { trial_id: 'a2', value_type: 'number', value: 0 },
      ],
    });
    expect([s.task_count, s.trial_count, s.score_count, s.error_count]).toEqual([1, 2, 2, 0]);
    // and the bytes are what the SDK writes (Python-computed oracle)
    expect(await readFile(join(out, 'summary.json'), 'utf8')).toBe(
      await readFile(join(SDK_SPARSE, 'summary.json'), 'utf8'),
    );

    expect(stdout).toContain('harbor_reward.reward             0.5      2          0       2/2');
    expect(stdout).toContain('harbor_reward.format_ok.pass@2     -      0          1');
  });

  it('writes a complete bundle to --out: evidence and data files copied byte for byte', async () => {
    const out = join(await tempDir(), 'out');
    expect(await main(['summarize', EXAMPLE, '--out', out, '--no-report'])).toBe(0);
    expect(await dirTexts(out)).toEqual(await dirTexts(EXAMPLE));
    expect(stdout).toContain('summary.json (unchanged)');
    // running again replaces the earlier output bundle
    expect(await main(['summarize', EXAMPLE, '--out', out, '--no-report'])).toBe(0);
    expect(await dirTexts(out)).toEqual(await dirTexts(EXAMPLE));
  });

  it('updates in place by default and leaves no staging directory behind', async () => {
    const dir = await copyOf(EXAMPLE);
    const before = await dirTexts(dir);
    await writeFile(join(dir, 'summary.json'), '{}\n');
    expect(await main(['summarize', dir, '--no-report'])).toBe(0);
    expect(await dirTexts(dir)).toEqual(before);
    expect(stdout).toMatch(/\(in place\): summary\.json\n/);
  });

  it('prints summary.json with --json', async () => {
    const out = join(await tempDir(), 'out');
    expect(await main(['summarize', SDK_SPARSE, '--out', out, '--no-report', '--json'])).toBe(0);
    expect(stdout).toBe(await readFile(join(SDK_SPARSE, 'summary.json'), 'utf8'));
  });

  it('summarizes without task specs when tasks.jsonl is absent', async () => {
    const dir = await copyOf(SDK_SPARSE);
    await rm(join(dir, 'tasks.jsonl'));
    expect(await main(['summarize', dir, '--no-report'])).toBe(0);
    const s = await summaryOf(dir);
    // no views and no pass@k without specs; output names come from the scores
    expect(s.scores.scores.map((a) => a.name)).toEqual(['harbor_reward.format_ok', 'harbor_reward.reward']);
    expect(s.task_count).toBe(1);
    expect(stdout).toContain('no tasks.jsonl: summarized without task specs');
  });

  it('rolls up trial errors and carries runner aggregates over', async () => {
    const dir = await copyOf(EXAMPLE);
    const summary = await summaryOf(dir);
    const runner = { ...row(summary, 'harbor_reward.reward'), name: 'runner.harbor.mean_reward', mean: 0.25 };
    summary.scores.scores.push(runner);
    await writeFile(join(dir, 'summary.json'), JSON.stringify(summary));
    expect(await main(['summarize', dir, '--no-report'])).toBe(0);
    const after = await summaryOf(dir);
    expect(after.scores.scores.at(-1)).toEqual(runner);
    expect(after.error_trial_ids).toEqual({ RuntimeError: ['b2'], AgentTimeoutError: ['c3'] });
    expect(stdout).toContain('trial errors: RuntimeError ×1, AgentTimeoutError ×1');
  });

  it('exit 2 for bad usage or input, naming file, line and field', async () => {
    expect(await main(['summarize'])).toBe(2);
    expect(await main(['summarize', join(await tempDir(), 'nothing-here')])).toBe(2);
    expect(stderr).toContain('no scores.jsonl in');
    const dir = await copyOf(SDK_SPARSE);
    const scores = await readFile(join(dir, 'scores.jsonl'), 'utf8');
    await writeFile(join(dir, 'scores.jsonl'), scores.replace('"trial_id": "a2"', '"trial_id": 2'));
    stderr = '';
    expect(await main(['summarize', dir])).toBe(2);
    expect(stderr).toMatch(/^evalstream: scores\.jsonl:2: trial_id: /);
  });

  it('exit 2 when --out is a non-empty directory that is not a bundle', async () => {
    const out = await tempDir();
    await mkdir(join(out, 'keep'));
    expect(await main(['summarize', SDK_SPARSE, '--out', out])).toBe(2);
    expect(stderr).toContain('does not hold a run bundle');
    expect(await main(['summarize', SDK_SPARSE, '--out', join(SDK_SPARSE, 'sub')])).toBe(2);
  });

  it('exit 1 when a file ends in a cut-off line: the complete lines are still summarized and written', async () => {
    const dir = await copyOf(SDK_SPARSE);
    const scores = await readFile(join(dir, 'scores.jsonl'), 'utf8');
    const [first, second] = scores.trimEnd().split('\n') as [string, string];
    await writeFile(join(dir, 'scores.jsonl'), `${first}\n${second}\n${second.slice(0, 50)}`);
    expect(await main(['summarize', dir, '--no-report'])).toBe(1);
    expect(stderr).toContain('scores.jsonl:3: the last line is cut off');
    expect((await summaryOf(dir)).score_count).toBe(2);
  });
});
