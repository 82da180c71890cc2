import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { reportWriterFor } from '../../src/report/report-writer-for.js';
import { toReport } from '../../src/sinks/to-report.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { readEmbedded } from './fixtures/read-embedded.js';
import { sparseFailedRun } from './fixtures/sparse-failed-run.js';

const SDK_BUNDLE = new URL('../fixtures/bundle/sdk-sparse', import.meta.url).pathname;

function sdkCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'evalstream-report-cli-')), 'bundle');
  cpSync(SDK_BUNDLE, dir, { recursive: true });
  return dir;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('reportWriterFor (the bundle writers’ ReportWriter seam)', () => {
  it('rebuilds report.html of an SDK bundle, trajectories read through its evidence refs', async () => {
    const dir = sdkCopy();
    const result = await reportWriterFor(dir);
    expect(result?.path).toBe(join(dir, 'report.html'));
    expect(result?.bytes).toBe(statSync(join(dir, 'report.html')).size);
    const { data, trials } = readEmbedded(readFileSync(join(dir, 'report.html'), 'utf8'));
    expect(data.run.id).toBe('agent-eval-20260715093012-1a2b3c4d');
    // spec §9: format_ok mean 1.0 count 1 nan_count 1; reward mean 0.5 count 2
    const rows = new Map(data.aggregates.map((a) => [a.name, a]));
    expect(rows.get('harbor_reward.format_ok')).toMatchObject({ mean: 1, count: 1, nanCount: 1 });
    expect(rows.get('harbor_reward.reward')).toMatchObject({ mean: 0.5, count: 2, nanCount: 0 });
    expect(rows.get('harbor_reward.format_ok')?.coverage).toEqual({
      total: 2,
      scored: 1,
      failed: 0,
      missing: 1,
    });
    expect(data.run.labels).toContainEqual(['benchmark', 'sparse-demo']);
    expect(trials[0]?.trajectory?.steps.length).toBeGreaterThan(0);
    expect(trials[1]?.output?.response).toEqual({ raw: [0, 2, 0.00001], score: 1 });
  });

  it('computes the summary when the bundle has no summary.json', async () => {
    const dir = sdkCopy();
    const expected = readEmbedded(readFileSync((await reportWriterFor(dir))!.path, 'utf8')).data.aggregates;
    rmSync(join(dir, 'summary.json'));
    const out = join(dir, 'again.html');
    await reportWriterFor(dir, { outPath: out });
    expect(readEmbedded(readFileSync(out, 'utf8')).data.aggregates).toEqual(expected);
  });
});

describe('evalstream report', () => {
  it('writes to --out and prints path and bytes with --json', async () => {
    const dir = sdkCopy();
    const out = join(dir, '..', 'elsewhere.html');
    const r = await run(['report', dir, '--out', out, '--json', '--trajectories', 'none']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.out) as { path: string; bytes: number };
    expect(printed).toEqual({ path: out, bytes: statSync(out).size });
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    expect(readEmbedded(readFileSync(out, 'utf8')).trials[0]?.trajectory).toBeUndefined();
  });

  it('says what it wrote in plain text by default', async () => {
    const dir = sdkCopy();
    const r = await run(['report', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^wrote ${join(dir, 'report.html')} \\(\\d+\\.\\d KiB\\)\\n$`));
  });

  it('explains bad input with exit code 2', async () => {
    const missing = await run(['report', '/nonexistent/bundle']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('is not a directory: pass the run bundle directory');
    const notBundle = await run(['report', mkdtempSync(join(tmpdir(), 'evalstream-empty-'))]);
    expect(notBundle.code).toBe(2);
    expect(notBundle.err).toMatch(/cannot read the bundle: .*no scores\.jsonl/);
    const badMode = await run(['report', sdkCopy(), '--trajectories', 'some']);
    expect(badMode.code).toBe(2);
    expect(badMode.err).toMatch(/Allowed choices are auto, all, none/);
  });

  it('has help with examples', async () => {
    const r = await run(['report', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Examples:');
    expect(r.out).toContain('evalstream report runs/r1 --out r1-report.html --trajectories none');
  });
});

describe('toReport sink', () => {
  it('collects scored trials and writes the report with the SDK summary on shutdown', async () => {
    const bundle = sparseFailedRun();
    const out = join(mkdtempSync(join(tmpdir(), 'evalstream-sink-')), 'report.html');
    const times = [new Date('2026-07-15T09:30:12Z'), new Date('2026-07-15T09:31:00Z')];
    const sink = toReport(out, { labels: { benchmark: 'demo' }, clock: () => times.shift() ?? new Date(0) });
    for (const trial of bundle.trials) {
      const task = bundle.tasks.find((t) => t.id === trial.task_id)!;
      await sink.write({
        item: { trial, evidence: null, task, origin: { file: 'memory' } },
        scores: bundle.scores.filter((s) => s.trial_id === trial.id),
        task,
      });
    }
    expect(sink.written).toBeNull();
    await sink.shutdown();
    await sink.shutdown();
    expect(sink.written?.path).toBe(out);
    await expect(sink.write({} as never)).rejects.toThrow('write after shutdown');
    const { data } = readEmbedded(readFileSync(out, 'utf8'));
    const expected = buildSummary({ scores: bundle.scores, tasks: bundle.tasks, trials: bundle.trials });
    expect(data.aggregates.map((a) => [a.name, a.mean, a.count, a.nanCount])).toEqual(
      expected.scores.scores.map((a) => [a.name, a.mean, a.count, a.nan_count]),
    );
    expect(data.run).toMatchObject({
      id: 'agent-eval-20260715093012-1a2b3c4d',
      labels: [['benchmark', 'demo']],
      startedAt: '2026-07-15T09:30:12.000Z',
      durationSec: 48,
    });
  });
});
