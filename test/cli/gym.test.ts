import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { row, tempDir, writeJsonl } from '../gym/gym-test-helpers.js';
import { runCli } from './run-cli.js';

const EXAMPLE = [
  row(0, 0, { reward: 1 }),
  row(0, 1, { reward: 0 }),
  row(1, 0, { reward: 1 }),
  row(1, 1, { reward: 1 }),
];

describe('evalstream gym aggregate', () => {
  it('writes the merged rollouts and the metrics file; warnings go to stderr once', async () => {
    const dir = tempDir();
    writeJsonl(dir, 'shard-0.jsonl', EXAMPLE.slice(0, 2));
    writeJsonl(dir, 'shard-1.jsonl', EXAMPLE.slice(2));
    const r = await runCli([
      'gym',
      'aggregate',
      '-i',
      join(dir, 'shard-*.jsonl'),
      '-o',
      join(dir, 'out', 'rollouts.jsonl'),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Aggregating 2 shard(s):\n');
    expect(r.stdout).toContain('\nKey metrics for agent_a:\n{\n    "mean/reward": 0.75\n}\n');
    expect(r.stderr).toBe(
      'evalstream: warning: Standard error is 0 (all 2 values are identical) -- confidence interval collapses to a single point rather than being computed.\n',
    );
    expect(readFileSync(join(dir, 'out', 'rollouts.jsonl'), 'utf8')).toBe(EXAMPLE.join('\n') + '\n');
    const metrics = JSON.parse(readFileSync(join(dir, 'out', 'rollouts_aggregate_metrics.json'), 'utf8'));
    expect(metrics[0].agent_metrics['std/reward']).toBe(0.5);
  });

  it('exit 2 with the message for bad input; --answer-key needs --pass-at-k', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'bad.jsonl', ['{"_ng_task_index": 0,']);
    const r = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'o.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `evalstream: Malformed JSON in '${path}' at line 1, column 22: expected double-quoted property name\n`,
    );
    expect(existsSync(join(dir, 'o.jsonl'))).toBe(false);
    const u = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'o.jsonl'), '--answer-key', 'a']);
    expect(u.code).toBe(2);
    expect(u.stderr).toBe('evalstream: --answer-key needs --pass-at-k\n');
    const t = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'o.jsonl'), '--threads', '0']);
    expect(t.code).toBe(2);
    expect(t.stderr).toBe('evalstream: --threads must be an integer from 1 to 64, got 0\n');
  });

  it('--threads 1 is accepted and gives the same outputs', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'in.jsonl', EXAMPLE);
    const a = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'a.jsonl')]);
    const b = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'b.jsonl'), '--threads', '1']);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'a.jsonl'), 'utf8'));
    expect(readFileSync(join(dir, 'b_aggregate_metrics.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'a_aggregate_metrics.json'), 'utf8'),
    );
  });

  it('--hooks loads computeMetrics/getKeyMetrics from a module; --pass-at-k adds Gym’s pass@k', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'r.jsonl', EXAMPLE);
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      'export function computeMetrics(tasks) { return { tasks: tasks.length }; }\n' +
        "export function getKeyMetrics(m) { return { tasks: m.tasks, 'pass@2/accuracy': m['pass@2/accuracy'] }; }\n",
    );
    const r = await runCli([
      'gym',
      'aggregate',
      '-i',
      path,
      '-o',
      join(dir, 'o.jsonl'),
      '--hooks',
      hooks,
      '--pass-at-k',
      '--no-merge',
    ]);
    expect(r.code).toBe(0);
    const [agent] = JSON.parse(readFileSync(join(dir, 'o_aggregate_metrics.json'), 'utf8'));
    expect(agent.key_metrics).toEqual({ tasks: 2, 'pass@2/accuracy': 100 });
    expect(agent.agent_metrics['pass@1/accuracy']).toBe(75);
    const badHooks = join(dir, 'bad-hooks.mjs');
    writeFileSync(badHooks, 'export const computeMetrics = 3;\n');
    const bad = await runCli([
      'gym',
      'aggregate',
      '-i',
      path,
      '-o',
      join(dir, 'o.jsonl'),
      '--hooks',
      badHooks,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`evalstream: Hooks module '${badHooks}': computeMetrics must be a function\n`);
  });

  it('--hooks accepts a TypeScript module (default export object)', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'r.jsonl', EXAMPLE);
    const hooks = join(dir, 'hooks.ts');
    writeFileSync(
      hooks,
      'const hooks = {\n  computeMetrics: (tasks: object[][]): Record<string, number> => ({ tasks: tasks.length }),\n};\nexport default hooks;\n',
    );
    const r = await runCli([
      'gym',
      'aggregate',
      '-i',
      path,
      '-o',
      join(dir, 'o.jsonl'),
      '--hooks',
      hooks,
      '--no-merge',
    ]);
    expect(r.code).toBe(0);
    const [agent] = JSON.parse(readFileSync(join(dir, 'o_aggregate_metrics.json'), 'utf8'));
    expect(agent.agent_metrics.tasks).toBe(2);
  });

  it('--db stores the rollouts as scored trials in DuckDB', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'r.jsonl', EXAMPLE);
    const db = join(dir, 'gym.duckdb');
    const r = await runCli(['gym', 'aggregate', '-i', path, '-o', join(dir, 'o.jsonl'), '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Rollouts stored in .*gym\.duckdb \(run [^)]+\)\n$/);
    const store = await openDuckDB(db, { readOnly: true });
    try {
      const rows = (
        await store.connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM trials')
      ).getRowObjectsJS();
      expect(rows).toEqual([{ n: 4 }]);
    } finally {
      store.close();
    }
  });
});

describe('evalstream gym profile', () => {
  it('prints the completion summary and writes the three files', async () => {
    const dir = tempDir();
    const inputs = writeJsonl(dir, 'r_materialized_inputs.jsonl', [
      JSON.stringify({ _ng_task_index: 0, _ng_rollout_index: 0, agent_ref: { name: 'a' } }),
      JSON.stringify({ _ng_task_index: 0, _ng_rollout_index: 1, agent_ref: { name: 'a' } }),
    ]);
    const rollouts = writeJsonl(dir, 'r.jsonl', [row(0, 0, { reward: 1, response: {} })]);
    const partial = await runCli(['gym', 'profile', '--inputs', inputs, '--rollouts', rollouts]);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('Missing rollout keys: [(0, 1)]');
    const r = await runCli([
      'gym',
      'profile',
      '--inputs',
      inputs,
      '--rollouts',
      rollouts,
      '--allow-partial-rollouts',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'Reward profile completion: 1/2 rollout rows (50.00%)\nInput rows: 1 total; 0 complete; 1 partial; 0 without rollouts dropped from output.\n',
    );
    for (const f of ['r_reward_profiling.jsonl', 'r_agent_metrics.json', 'r_repeat_level_metrics.json'])
      expect(existsSync(join(dir, f))).toBe(true);
  });
});
