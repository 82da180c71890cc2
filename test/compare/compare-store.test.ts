import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunComparison } from '../../src/compare/output-comparison.js';
import { runCli } from '../cli/run-cli.js';
import { gymRolloutsText } from '../stats/gym-rollouts-text.js';

let dir: string;
let store: string;
// continuous rewards in [0, 1] (not binary), 3 repeats; B is better on every fourth task and lacks task 19
const A = Array.from({ length: 20 }, (_, t) => [0, 1, 2].map((r) => ((t * 5 + r * 3) % 9) / 8));
const B = A.slice(0, 19).map((row, t) => row.map((v) => (t % 4 === 0 ? Math.min(1, v + 0.5) : v)));

async function score(name: string): Promise<void> {
  const r = await runCli([
    'score',
    join(dir, `${name}.jsonl`),
    '--config',
    join(dir, 'c.json'),
    '--run-id',
    `run-${name}`,
    '--out',
    join(dir, name),
    '--db',
    store,
    '--no-report',
    '--no-progress',
  ]);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-compare-store-'));
  store = join(dir, 'all.duckdb');
  writeFileSync(join(dir, 'a.jsonl'), gymRolloutsText(A));
  writeFileSync(join(dir, 'b.jsonl'), gymRolloutsText(B));
  writeFileSync(join(dir, 'c.json'), JSON.stringify({ metrics: { default: ['verifier_reward', 'usage'] } }));
  // one store, two runs; run-b is written last, so it is the store's newest
  await score('a');
  await score('b');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function compare(...args: string[]): Promise<RunComparison> {
  const r = await runCli(['compare', ...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as RunComparison;
}

/** The comparison without where each side was read from. */
function withoutSources(c: RunComparison): Omit<RunComparison, 'a' | 'b'> & { runs: (string | null)[] } {
  const { a, b, ...rest } = c;
  return { runs: [a.runId, b.runId], ...rest };
}

describe('evalstream compare on DuckDB stores', () => {
  it('gives the same comparison from a store as from the bundles of the same runs', async () => {
    const bundles = await compare(join(dir, 'a'), join(dir, 'b'));
    const stores = await compare(`${store}#run-a`, `${store}#run-b`);
    expect(stores.a).toEqual({ source: `${store}#run-a`, runId: 'run-a' });
    expect(withoutSources(stores)).toEqual(withoutSources(bundles));
    const reward = stores.outputs.find((o) => o.name === 'verifier_reward.reward');
    expect(reward).toMatchObject({ binary: false, tasks: 19, pairs: 57, onlyInA: ['19'] });
    // a bundle on one side, a store on the other
    expect(withoutSources(await compare(join(dir, 'a'), `${store}#run-b`))).toEqual(withoutSources(bundles));
  });

  it('reads the newest run by default and takes --run-a / --run-b', async () => {
    const newest = await compare(join(dir, 'a'), store);
    expect(newest.b.runId).toBe('run-b');
    const flags = await compare(store, store, '--run-a', 'run-a', '--run-b', 'run-b');
    expect([flags.a.runId, flags.b.runId]).toEqual(['run-a', 'run-b']);
    const same = await compare(store, store, '--run-a', 'run-b');
    expect(same.outputs.every((o) => o.difference === 0)).toBe(true);
  });

  it('exit 2 naming the store and its runs for an unknown run, and refuses a run id on a bundle', async () => {
    const r = await runCli(['compare', join(dir, 'a'), `${store}#nope`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${store}: no run 'nope' (runs held: run-a, run-b)`);
    const bundle = await runCli(['compare', join(dir, 'a'), join(dir, 'b'), '--run-b', 'run-b']);
    expect(bundle.code).toBe(2);
    expect(bundle.stderr).toContain("a run id ('run-b') only chooses a run of a DuckDB store");
    const notStore = join(dir, 'empty.duckdb');
    const made = await runCli(['query', '--db', notStore, '--write', 'create table x (i int)']);
    expect(made.code, made.stderr).toBe(0);
    const empty = await runCli(['compare', join(dir, 'a'), notStore]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`${notStore}: not an evalstream store (no runs table)`);
  });
});
