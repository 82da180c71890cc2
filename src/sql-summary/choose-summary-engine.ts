import { totalmem } from 'node:os';

/** The two summary engines `--engine auto` chooses between. */
export type SummaryEngineName = 'memory' | 'duckdb';

/** Inputs up to this many bytes are summarized in memory by `--engine auto` (at most). */
export const AUTO_MEMORY_MAX_BYTES = 1024 ** 3;

/**
 * The engine `--engine auto` uses for a run, from its size before reading it: in memory while the
 * input is small — `bytes` up to 1 GiB, and at most 1/16 of the machine's RAM, since the in-memory
 * engine peaks at about 2.5× the size of `scores.jsonl` — else DuckDB, which spills to disk past its
 * `memory_limit`. An explicit `memory` or `duckdb` is returned as is.
 *
 * @example
 * chooseSummaryEngine('auto', 240e6); // 'memory'
 * chooseSummaryEngine('auto', 12e9);  // 'duckdb'
 */
export function chooseSummaryEngine(
  engine: SummaryEngineName | 'auto',
  bytes: number,
  memoryBytes: number = totalmem(),
): SummaryEngineName {
  if (engine !== 'auto') return engine;
  return bytes > Math.min(AUTO_MEMORY_MAX_BYTES, memoryBytes / 16) ? 'duckdb' : 'memory';
}
