import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { summarizeStoreRun } from '../../src/sql-summary/summarize-store-run.js';
import { queryRows } from './duckdb-test-db.js';
import { runR1 } from './duckdb-sink-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-duckdb-crash-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer child, waits for `lines` batch-boundary lines, kills it (SIGKILL); returns them. */
async function killMidIngest(file: string, commit: string, runs: string[], lines: number): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'duckdb-crash-child.ts'), file, commit, ...runs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const seen: string[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      seen.push(...parts);
      if (seen.length >= lines) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited early (${code}): ${stderr}`));
    });
  });
  await new Promise((r) => child.once('close', r));
  return seen;
}

async function snapshot(file: string) {
  const db = await openDuckDB(file, { readOnly: true });
  try {
    return {
      counts: await queryRows(
        db.connection,
        'SELECT run_id, count(*) AS n, sum(output_count) AS outputs FROM scores GROUP BY run_id ORDER BY run_id',
      ),
      rewards: await queryRows(
        db.connection,
        "SELECT num_value FROM score_outputs WHERE run_id = 'R1' AND output_name = 'reward' ORDER BY score_ordinal",
      ),
      summary: await summarizeStoreRun(db.connection, 'R1'),
    };
  } finally {
    db.close();
  }
}

describe('a crash mid-write leaves the previous state readable', () => {
  it('killing a session that rewrites R1 and adds R2 leaves R1 as it was and no R2', async () => {
    const file = join(dir, 'crash.duckdb');
    const sink = toDuckDB(file);
    for (const item of runR1()) await sink.write(item);
    await sink.shutdown();
    const before = await snapshot(file);
    expect(before.counts).toEqual([{ run_id: 'R1', n: 6n, outputs: 9n }]);

    const lines = await killMidIngest(file, 'shutdown', ['R1', 'R2'], 3);
    expect(lines[2]).toBe('appended 1200');
    const after = await snapshot(file);
    expect(after).toEqual(before);
  }, 120_000);

  it("with commit: 'batch' the batches committed before the kill stay, R1 is untouched", async () => {
    const file = join(dir, 'batch.duckdb');
    const sink = toDuckDB(file);
    for (const item of runR1()) await sink.write(item);
    await sink.shutdown();
    const before = await snapshot(file);

    const lines = await killMidIngest(file, 'batch', ['R3'], 2);
    const committed = Number(lines[1]?.split(' ')[1]);
    expect(committed).toBe(400);
    const after = await snapshot(file);
    expect(after.summary).toEqual(before.summary);
    expect(after.rewards).toEqual(before.rewards);
    const r3 = after.counts.find((c) => c.run_id === 'R3');
    expect(Number(r3?.n)).toBeGreaterThanOrEqual(committed);
    expect(Number(r3?.n) % 200).toBe(0);
  }, 120_000);
});
