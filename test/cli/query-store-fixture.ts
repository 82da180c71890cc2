import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { runR1, sampleEvidence, score, scored, trial } from '../sinks/duckdb-sink-fixtures.js';

/** Writes a store with run R1 (3 trials, 6 scores) and run R2 (one OTLP trial: spans, tool calls). */
export async function writeFixtureStore(file: string): Promise<void> {
  const sink = toDuckDB(file, { now: () => new Date('2026-07-15T09:30:12Z') });
  for (const item of runR1()) await sink.write(item);
  await sink.write(
    scored(
      trial('o1'),
      [score('o1', 'judge', [['reward', 0.75]], 'completed', 'R2')],
      sampleEvidence('otlp', 'agentevals__adk_py_v2_default_S2.json'),
    ),
  );
  await sink.shutdown();
}

/** Runs the CLI in-process; returns its exit code and what it wrote to stdout (bytes) and stderr. */
export async function runCli(args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const out: Buffer[] = [];
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += chunk.toString();
    return true;
  });
  try {
    const code = await main(args);
    return { code, stdout: Buffer.concat(out), stderr: err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
