import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/sources/input-error.js';
import { fromHarborJob } from '../../src/sources/from-harbor-job.js';
import type { TrialItem } from '../../src/model/trial-item.js';

const job = fileURLToPath(new URL('../fixtures/harbor/job-2026-01-05', import.meta.url));
const all = (dir: string): Promise<TrialItem[]> => lastValueFrom(fromHarborJob(dir).pipe(toArray()));

/** The trial ids a job gives before it errors, and the error (null when it completes). */
async function idsUntilError(dir: string): Promise<{ seen: string[]; error: unknown }> {
  const seen: string[] = [];
  const error = await new Promise<unknown>((resolve) =>
    fromHarborJob(dir).subscribe({
      next: (i) => seen.push(i.trial.id),
      error: resolve,
      complete: () => resolve(null),
    }),
  );
  return { seen, error };
}

/** Runs `fn` on a copy of the example job in a temporary directory (removed afterwards). */
async function withJobCopy(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-'));
  try {
    cpSync(job, dir, { recursive: true });
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Expected values read off the fixture files by hand (see test/fixtures/harbor/README.md).
describe('fromHarborJob', () => {
  it('one trial per trial directory with a result.json, in name order', async () => {
    const items = await all(job);
    expect(items.map((i) => [i.trial.task_id, i.trial.id, i.trial.status])).toEqual([
      ['fix-bug', 'fix-bug__Q9rT2wX', 'partial'],
      ['hello-world', 'hello-world__Ab3dE9f', 'completed'],
      ['multi-step', 'multi-step__Z7kP4mN', 'completed'],
    ]);
    expect(items[0]?.origin.file).toBe(join(job, 'fix-bug__Q9rT2wX', 'result.json'));
  });

  it('completed trial: rewards in metadata, agent_result as measurements, ATIF primary trace', async () => {
    const item = (await all(job))[1] as TrialItem;
    expect(item.trial.metadata['verifier_result']).toEqual({ rewards: { reward: 1.0 } });
    expect(item.trial.measurements).toEqual({
      prompt_tokens: 3970,
      completion_tokens: 147,
      total_tokens: 4117,
      cache_creation_tokens: null,
      cache_read_tokens: 2452,
      runtime_sec: 90.75, // 12:00:01.5 → 12:01:32.25
      cost_usd: 0.00731,
    });
    expect(item.trial.error).toBeNull();
    expect(item.trial.output?.output_text).toBe("The file hello.txt now contains 'Hello, world!'.");
    const ev = item.evidence;
    expect(ev?.names()).toEqual(['trace', 'trace:atif', 'logs', 'verifier_logs']);
    const trace = await ev!.trace();
    expect(trace.format).toBe('atif');
    expect(trace.normalizedToolCalls().map((c) => [c.name, c.arguments, c.result])).toEqual([
      ['bash', { keystrokes: "echo 'Hello, world!' > hello.txt\n" }, '$ '],
      ['bash', { keystrokes: 'cat hello.txt\n' }, 'Hello, world!\n$ '],
    ]);
    // steps: 1200+1350+1420 prompt, 85+40+22 completion, 0+1152+1300 cached
    expect(trace.normalizedTokenUsage()).toMatchObject({ input: 3970, output: 147, cached: 2452 });
    await expect(ev!.trace('trace', 'otlp')).rejects.toThrow(
      "missing evidence descriptor 'trace' in format 'otlp'",
    );
    const logs = await ev!.logs();
    expect(await logs.listFiles()).toEqual(['terminus_2.log', 'trajectory.json']);
    expect(await (await ev!.logs('verifier_logs')).readText('reward.txt')).toBe('1\n');
    expect(item.trial.evidence?.descriptors['trace:atif']?.ref).toBe(
      join(job, 'hello-world__Ab3dE9f', 'agent', 'trajectory.json'),
    );
  });

  it('errored trial: exception_info as the error (status partial), OTLP primary, ATIF alongside', async () => {
    const item = (await all(job))[0] as TrialItem;
    expect(item.trial.error).toEqual({
      type: 'AgentTimeoutError',
      message: 'Agent execution timed out after 900.0 seconds',
      traceback:
        'Traceback (most recent call last):\n  File "harbor/trial/trial.py", line 201, in _execute_agent\n    await asyncio.wait_for(\nTimeoutError\n',
      occurred_at: '2026-01-05T12:17:05.000000',
    });
    expect(item.trial.metadata['verifier_result']).toBeUndefined();
    expect(item.trial.measurements).toMatchObject({
      prompt_tokens: 15400,
      completion_tokens: 2100,
      cache_read_tokens: 9000,
      cost_usd: null,
      runtime_sec: 910.5,
    });
    const ev = item.evidence!;
    const primary = await ev.trace();
    expect(primary.format).toBe('otlp');
    expect(await ev.trace('trace', 'otlp')).toBe(primary);
    // 2 chat spans: 7000 + 8400 in, 900 + 1200 out; two identical failing bash calls
    expect(primary.normalizedTokenUsage()).toMatchObject({ input: 15400, output: 2100 });
    expect(primary.normalizedToolCalls().map((c) => [c.id, c.name, c.isError])).toEqual([
      ['call_a', 'bash', true],
      ['call_b', 'bash', true],
    ]);
    const atif = await ev.trace('trace', 'atif');
    expect(atif.format).toBe('atif');
    expect(atif.normalizedToolCalls().map((c) => c.id)).toEqual(['call_a', 'call_b']);
    expect(item.trial.output?.output_text).toBe('Still failing; retrying the fix.');
  });

  it('multi-step trial: measurements summed over step_results, last recorded rewards', async () => {
    const item = (await all(job))[2] as TrialItem;
    expect(item.trial.measurements).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 130,
      total_tokens: 1330,
      cache_creation_tokens: null,
      cache_read_tokens: 100, // the second step did not measure it
      runtime_sec: 60,
      cost_usd: 0.003,
    });
    expect(item.trial.metadata['verifier_result']).toEqual({ rewards: { reward: 1.0, partial: 0.5 } });
    expect(item.evidence).toBeNull();
    expect(item.trial.output).toEqual({ output_text: null, response: null, metadata: {} });
  });

  it('accepts a single trial directory', async () => {
    const items = await all(join(job, 'hello-world__Ab3dE9f'));
    expect(items.map((i) => i.trial.id)).toEqual(['hello-world__Ab3dE9f']);
  });

  it('is lazy: nothing is read before subscription, and take(1) stops early', async () => {
    const obs = fromHarborJob('/does/not/exist');
    await expect(firstValueFrom(obs)).rejects.toBeInstanceOf(InputError);
    const first = await firstValueFrom(fromHarborJob(job));
    expect(first.trial.id).toBe('fix-bug__Q9rT2wX');
  });

  it('a corrupt result.json errors after the trials before it, naming the file', async () => {
    await withJobCopy(async (dir) => {
      writeFileSync(join(dir, 'multi-step__Z7kP4mN', 'result.json'), '{"task_name": "multi-step", ');
      const { seen, error } = await idsUntilError(dir);
      expect(seen).toEqual(['fix-bug__Q9rT2wX', 'hello-world__Ab3dE9f']);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe(join(dir, 'multi-step__Z7kP4mN', 'result.json'));
      expect((error as Error).message).toMatch(/result\.json: not valid JSON/);
    });
  });

  it('with onIssue, a corrupt result.json is reported and its trial skipped; the others are read', async () => {
    await withJobCopy(async (dir) => {
      writeFileSync(join(dir, 'multi-step__Z7kP4mN', 'result.json'), '{"task_name": "multi-step", ');
      writeFileSync(join(dir, 'hello-world__Ab3dE9f', 'result.json'), JSON.stringify({ trial_name: 5 }));
      const issues: InputError[] = [];
      const items = await lastValueFrom(
        fromHarborJob(dir, { onIssue: (issue) => issues.push(issue) }).pipe(toArray()),
      );
      expect(items.map((i) => i.trial.id)).toEqual(['fix-bug__Q9rT2wX']);
      expect(issues.map((i) => [i.file, i.diagnostic])).toEqual([
        [join(dir, 'hello-world__Ab3dE9f', 'result.json'), 'skipped_file'],
        [join(dir, 'multi-step__Z7kP4mN', 'result.json'), 'skipped_file'],
      ]);
      expect(issues[0]?.message).toMatch(/result\.json: not a Harbor trial result: .*; skipped$/);
      expect(issues[0]?.field).toBe('trial_name');
      expect(issues[1]?.message).toMatch(/result\.json: not valid JSON: .*; skipped$/);
    });
  });

  it('a trajectory that is there but does not read is a diagnostic of its trial, not silently absent evidence', async () => {
    await withJobCopy(async (dir) => {
      const cut = join(dir, 'hello-world__Ab3dE9f', 'agent', 'trajectory.json');
      writeFileSync(cut, readFileSync(cut, 'utf8').slice(0, 300));
      const items = await all(dir);
      const hello = items.find((i) => i.trial.id === 'hello-world__Ab3dE9f');
      expect(Object.keys(hello?.trial.evidence?.descriptors ?? {})).not.toContain('trace');
      expect(hello?.diagnostics).toEqual([
        {
          code: 'skipped_file',
          message: expect.stringMatching(
            /^not valid JSON: .*; not read as the trial's ATIF trajectory$/,
          ) as unknown,
          file: cut,
          line: null,
          offset: null,
          field: '',
        },
      ]);
      writeFileSync(cut, JSON.stringify({ schema_version: 'ATIF-v1.6', steps: 'none' }));
      const again = (await all(dir)).find((i) => i.trial.id === 'hello-world__Ab3dE9f');
      expect(again?.diagnostics?.map((d) => [d.code, d.field])).toEqual([['skipped_file', 'agent']]);
      expect(again?.diagnostics?.[0]?.message).toMatch(/^not a valid ATIF trajectory at /);
      // the other trials are as before
      expect(
        items.filter((i) => i.trial.id !== 'hello-world__Ab3dE9f').every((i) => i.diagnostics === undefined),
      ).toBe(true);
    });
  });

  it('reads trials ahead but gives them, and a corrupt one’s error, in name order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-'));
    try {
      const names = Array.from({ length: 20 }, (_, i) => `hello-world__T${String(i).padStart(4, '0')}`);
      for (const name of names) {
        cpSync(join(job, 'hello-world__Ab3dE9f'), join(dir, name), { recursive: true });
        writeFileSync(
          join(dir, name, 'result.json'),
          JSON.stringify({
            task_name: 'hello-world',
            trial_name: name,
            verifier_result: { rewards: { reward: 1 } },
          }),
        );
      }
      writeFileSync(join(dir, names[12] as string, 'result.json'), '{"task_name": ');
      const { seen, error } = await idsUntilError(dir);
      expect(seen).toEqual(names.slice(0, 12));
      expect((error as InputError).file).toBe(join(dir, names[12] as string, 'result.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
