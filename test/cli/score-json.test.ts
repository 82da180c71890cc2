import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

describe('evalstream score --json', () => {
  it('prints the run outcome as one JSON object', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'evalstream-score-json-')), 'run');
    const writes: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      const code = await main([
        'score',
        'test/fixtures/harbor/job-2026-01-05',
        '--out',
        out,
        '--json',
        '--no-report',
        '--run-id',
        'agent-eval-20260101000000-00000001',
      ]);
      expect(code).toBe(0);
    } finally {
      spy.mockRestore();
    }
    // 3 finished trials (one trial dir has no result.json yet and is skipped). Scores by hand from the
    // fixture README: hello-world (ATIF + reward) 4 metrics, fix-bug (OTLP, no verifier) the 3
    // trajectory metrics, multi-step (reward, no trace) verifier_reward only: 4 + 3 + 1 = 8.
    expect(JSON.parse(writes.join(''))).toEqual({
      run_id: 'agent-eval-20260101000000-00000001',
      out,
      db: null,
      trials: 3,
      scores: 8,
      trial_failures: 0,
      metric_failures: 0,
    });
  });
});
