import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialItem } from '../../src/model/trial-item.js';
import { fromAtifFiles } from '../../src/sources/from-atif-files.js';
import { InputError } from '../../src/sources/input-error.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/atif/${name}`, import.meta.url));
const fast = fixture('fast-agent__harbor_multiagent_v1_7.json');
const exmp02 = fixture('nemo-agent-toolkit__exmp02_atif.json');
const all = (paths: string[]): Promise<TrialItem[]> => lastValueFrom(fromAtifFiles(paths).pipe(toArray()));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atif-files-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fromAtifFiles', () => {
  it('one trial per file: id from trajectory_id or the file name, measurements from the totals', async () => {
    const [a, b] = await all([fast, exmp02]);
    expect(a?.trial.id).toBe('traj_root_golden');
    expect(a?.trial.task_id).toBe('traj_root_golden');
    expect(a?.trial.measurements).toEqual({
      prompt_tokens: 250,
      completion_tokens: 50,
      total_tokens: 300,
      cache_creation_tokens: null,
      cache_read_tokens: 120,
      runtime_sec: null,
      cost_usd: null,
    });
    expect(a?.trial.output?.output_text).toBe('The workspace is /workspace.');
    expect(a?.trial.metadata).toEqual({
      schema_version: 'ATIF-v1.7',
      agent_name: 'fast-agent',
      model_name: 'codexresponses.gpt-5.4?reasoning=high',
      session_id: 'harbor-golden-run',
    });
    expect(b?.trial.id).toBe('nemo-agent-toolkit__exmp02_atif');
    expect(b?.trial.measurements.prompt_tokens).toBeNull();
    expect(b?.trial.output?.output_text).toBe('3 + 4 = 7');
    const trace = await b!.evidence!.trace('trace', 'atif');
    expect(trace.normalizedToolCalls().map((c) => c.name)).toEqual(['calculator__add']);
    expect(b?.trial.evidence?.descriptors['trace']).toMatchObject({
      kind: 'trace',
      format: 'atif',
      ref: exmp02,
    });
  });

  it('repeated ids are made unique; extra.task_id and extra.error are used', async () => {
    const f = join(dir, 'run.atif.json');
    writeFileSync(
      f,
      JSON.stringify({
        schema_version: 'ATIF-v1.7',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'agent', message: '' }],
        extra: { task_id: 'task-7', error: { type: 'RuntimeError', message: 'boom' } },
      }),
    );
    const items = await all([f, f]);
    expect(items.map((i) => [i.trial.id, i.trial.task_id, i.trial.status])).toEqual([
      ['run', 'task-7', 'partial'],
      ['run-2', 'task-7', 'partial'],
    ]);
    expect(items[0]?.trial.error).toEqual({
      type: 'RuntimeError',
      message: 'boom',
      traceback: null,
      occurred_at: null,
    });
    expect(items[0]?.trial.output?.output_text).toBeNull();
  });

  it('an invalid file errors with the file and field after the trials before it', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        schema_version: 'ATIF-v1.7',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'robot', message: '' }],
      }),
    );
    const ids: string[] = [];
    const error = await new Promise<unknown>((resolve) =>
      fromAtifFiles([exmp02, bad]).subscribe({
        next: (i) => ids.push(i.trial.id),
        error: resolve,
        complete: () => resolve(null),
      }),
    );
    expect(ids).toEqual(['nemo-agent-toolkit__exmp02_atif']);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('steps.0.source');
    expect((error as InputError).file).toBe(bad);
  });

  it('with onIssue, a file that is not JSON or not ATIF is reported in its turn and skipped', async () => {
    const notJson = join(dir, 'cut.json');
    writeFileSync(notJson, '{"schema_version": "ATIF-v1.6", "steps": [');
    const notAtif = join(dir, 'not-atif.json');
    writeFileSync(notAtif, JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 's', steps: 'none' }));
    const order: string[] = [];
    const items = await lastValueFrom(
      fromAtifFiles([fast, notJson, exmp02, notAtif], {
        onIssue: (issue) => order.push(`${issue.diagnostic}: ${issue.message}`),
      }).pipe(toArray()),
    );
    expect(items.map((i) => i.trial.id)).toEqual(['traj_root_golden', 'nemo-agent-toolkit__exmp02_atif']);
    expect(order).toEqual([
      expect.stringMatching(/^skipped_file: .*cut\.json: not valid JSON: .*; skipped$/) as unknown,
      expect.stringMatching(/^skipped_file: .*not-atif\.json: not a valid ATIF trajectory at /) as unknown,
    ]);
  });
});
