import { mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordTrialPool, writeAgentTraceDump } from '../../bench/generate-agent-traces.js';
import { OTLPTraceHandle } from '../../src/evidence/otlp/otlp-trace-handle.js';
import { compactToolCalls } from '../../src/report/read-trial-trajectory.js';
import { queryJson, runCli } from '../cli/run-cli.js';
import { readEmbedded } from './fixtures/read-embedded.js';

/** Runs the CLI in process; fails the test on a non-zero exit. */
async function succeeds(args: string[]): Promise<void> {
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
}

describe('a run scored from an OTLP dump: its report, and the bundle scored again', () => {
  it("embeds every trial's tool calls from the one dump, as a handle per trial reads them; re-scoring gives the same run", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otlp-dump-report-'));
    const dump = join(dir, 'dump.otlp.pb');
    await writeAgentTraceDump(dump, 1_200_000, recordTrialPool(12));
    const out = join(dir, 'run');
    await succeeds(['score', dump, '--out', out, '--db', join(dir, 'dump.duckdb'), '--no-progress']);
    const report = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    const rows = readFileSync(join(out, 'trials.jsonl'), 'utf8').trim().split('\n');
    expect(report.trials).toHaveLength(rows.length);
    expect(rows.length).toBeGreaterThan(20);
    let calls = 0;
    rows.forEach((line, i) => {
      const trial = JSON.parse(line) as { evidence: { descriptors: { trace: { metadata: object } } } };
      const { otlp_trace_ids: ids } = trial.evidence.descriptors.trace.metadata as {
        otlp_trace_ids: string[];
      };
      const own = OTLPTraceHandle.fromFile(dump, { traceIds: ids });
      expect(report.trials[i]?.trajectory).toEqual(
        compactToolCalls('otlp', own.normalizedToolCalls(), { maxText: 4000 }),
      );
      calls += own.normalizedToolCalls().length;
    });
    expect(calls).toBeGreaterThan(0);

    // the bundle scored again (its trials' traces are refs into the dump, read once for all of them):
    // the same summary, and the same spans stored
    const again = join(dir, 'again');
    await succeeds(['score', out, '--out', again, '--db', join(dir, 'again.duckdb'), '--no-progress']);
    expect(readFileSync(join(again, 'summary.json'), 'utf8')).toBe(
      readFileSync(join(out, 'summary.json'), 'utf8'),
    );
    const spans = async (db: string) => queryJson(join(dir, db), 'select count(*)::int as n from spans');
    expect(await spans('again.duckdb')).toEqual(await spans('dump.duckdb'));
    expect((await spans('dump.duckdb'))[0]?.n).toBeGreaterThan(0);

    // the dump gone: every trial says so (the failed read is not retried trial after trial)
    renameSync(dump, join(dir, 'moved.otlp.pb'));
    await succeeds(['report', out]);
    const notes = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8')).trials.map(
      (t) => t.trajectoryNote,
    );
    expect(notes).toHaveLength(rows.length);
    for (const note of notes) expect(note).toMatch(/^Trajectory could not be read: .*dump\.otlp\.pb/);
  });
});
