import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/mulberry32.js';
import { queryJson } from '../cli/run-cli.js';

// Threat: `score --db X --out Y` killed (SIGKILL) part-way leaving a store or bundle that a re-run
// doubles or loses rows in.
const KILL_POINTS = Number(process.env['EVALSTREAM_KILL_POINTS'] ?? 3);
const SEED = Number(process.env['EVALSTREAM_KILL_SEED'] ?? 32);
const ROLLOUTS = 3000;
const BUNDLE_DATA = ['run.json', 'summary.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl'];
const TABLES = ['runs', 'tasks', 'trials', 'scores', 'score_outputs', 'spans', 'tool_calls'];
const ORDINALS: Record<string, string> = {
  trials: 'trial_ordinal',
  scores: 'score_ordinal',
  score_outputs: 'score_ordinal',
};

let dir: string;
let input: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-kill-'));
  input = join(dir, 'rollouts.jsonl');
  const rows = readFileSync('test/fixtures/gym/rollouts.jsonl', 'utf8').trimEnd().split('\n');
  const lines: string[] = [];
  for (let i = 0; i < ROLLOUTS; i++) {
    const row = JSON.parse(rows[i % rows.length] as string) as Record<string, unknown>;
    row['_ng_task_index'] = Math.floor(i / 4);
    row['_ng_rollout_index'] = i % 4;
    delete row['_ng_attempt_index'];
    lines.push(JSON.stringify(row));
  }
  writeFileSync(input, `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `score` from source in a child process; `killAfter` (ms after it starts scoring) sends SIGKILL. */
function score(
  out: string,
  db: string,
  killAfter: number | null,
): Promise<{ code: number | null; killed: boolean }> {
  const main = resolve('src/cli/main.ts');
  const args = [
    'score',
    input,
    '--format',
    'gym',
    '--out',
    out,
    '--db',
    db,
    '--run-id',
    'K1',
    '--no-progress',
    '--no-report',
  ];
  const script = `import { main } from ${JSON.stringify(main)}; process.stderr.write('started\\n'); process.exitCode = await main(${JSON.stringify(args)});`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let killed = false;
    child.stderr.once('data', () => {
      if (killAfter !== null)
        setTimeout(() => {
          killed = child.exitCode === null && child.kill('SIGKILL');
        }, killAfter);
    });
    child.on('close', (code) => done({ code, killed }));
  });
}

/** What must be equal: the bundle's data files, and every table's rows of the run (count and digest). */
async function snapshot(out: string, db: string): Promise<Record<string, unknown>> {
  const files = Object.fromEntries(
    BUNDLE_DATA.map((f) => {
      const bytes = readFileSync(join(out, f));
      return [f, { bytes: bytes.length, md5: createHash('md5').update(bytes).digest('hex') }];
    }),
  );
  const tables: Record<string, unknown> = {};
  for (const table of TABLES) {
    // positions are compared, not the store's ordinals: a run written again continues them
    const ordinal = ORDINALS[table];
    const rows =
      ordinal === undefined
        ? `SELECT * EXCLUDE (${table === 'runs' ? 'written_at' : 'run_id'}) FROM ${table} WHERE run_id = 'K1'`
        : `SELECT * EXCLUDE (run_id, ${ordinal}), dense_rank() OVER (ORDER BY ${ordinal}) AS position
           FROM ${table} WHERE run_id = 'K1'`;
    const [row] = await queryJson(
      db,
      `SELECT count(*)::INT AS n, md5(coalesce(string_agg(t::VARCHAR, chr(10) ORDER BY t::VARCHAR), '')) AS digest
       FROM (${rows}) t`,
    );
    tables[table] = row;
  }
  return { files, tables };
}

describe('kill -9 of score --db at seeded points', () => {
  it(`re-running gives the store and bundle of an uninterrupted run (${KILL_POINTS} points)`, async () => {
    const refOut = join(dir, 'ref');
    const refDb = join(dir, 'ref.duckdb');
    const started = Date.now();
    const ref = await score(refOut, refDb, null);
    const duration = Date.now() - started;
    expect(ref.code).toBe(0);
    const expected = await snapshot(refOut, refDb);

    const next = mulberry32(SEED);
    const out = join(dir, 'out');
    const db = join(dir, 'runs.duckdb');
    let survived = 0;
    for (let k = 0; k < KILL_POINTS; k++) {
      const at = Math.floor(next() * duration);
      const killed = await score(out, db, at);
      if (killed.killed) survived += 1;
      const again = await score(out, db, null);
      expect(again.code, `after a kill at ${at} ms`).toBe(0);
      expect(await snapshot(out, db), `after a kill at ${at} ms`).toEqual(expected);
      expect(readdirSync(out).filter((f) => f.startsWith('.evalstream-staging-'))).toEqual([]);
      expect(existsSync(`${out}.incomplete`)).toBe(false);
    }
    process.stdout.write(
      `kill -9: ${survived} of ${KILL_POINTS} kills landed mid-run; every re-run matched\n`,
    );
  }, 600_000);
});
