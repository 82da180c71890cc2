import { totalmem } from 'node:os';

/** The two summary engines `--engine auto` chooses between. */
export type SummaryEngineName = 'memory' | 'duckdb';

/** Inputs up to this many bytes are summarized in memory by `--engine auto` (at most). */
export const AUTO_MEMORY_MAX_BYTES = 1024 ** 3;

/**
 * The engine `--engine auto` uses for a run, from its size before reading it: in memory while the
 * input is small — `bytes` up to 1 GiB, and at most 1/16 of the machine's RAM, since the in-memory
 * engine's peak grows with the size of `scores.jsonl` — else DuckDB, which spills to disk past its
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

/** Score records `score --engine auto` keeps in the in-memory summary (at most) before DuckDB takes it. */
export const AUTO_MEMORY_MAX_SCORES = 8_000_000;

/** What the in-memory summary of `score` holds per score record, about (task values, trial ids, rollups). */
const SCORE_RECORD_BYTES = 128;

/**
 * How many score records `score --engine auto` summarizes in memory before it hands the summary to
 * DuckDB: {@link AUTO_MEMORY_MAX_SCORES}, and at most what fits in 1/16 of the machine's RAM. A trace
 * dump's size says little about how many trials it holds (~7 KB to megabytes of spans per trial), so
 * `score` counts the scores as they pass instead of guessing from its inputs' size.
 *
 * @example
 * autoMemoryMaxScores(24 * 1024 ** 3); // 8000000
 * autoMemoryMaxScores(4 * 1024 ** 3);  // 2097152
 */
export function autoMemoryMaxScores(memoryBytes: number = totalmem()): number {
  return Math.min(AUTO_MEMORY_MAX_SCORES, Math.floor(memoryBytes / 16 / SCORE_RECORD_BYTES));
}

/**
 * The summary plan of `score`: with `--engine auto` and no store, the in-memory summary that DuckDB
 * takes over past {@link autoMemoryMaxScores} score records (`overflowMaxScores`); with a store
 * (`--db`), `auto` chooses from the inputs' size before reading, since the store is filled as the
 * trials pass and the SQL summary then reads it rather than loading the run a second time.
 *
 * @example
 * chooseScoreSummaryEngine('auto', false, 5e9); // { engine: 'memory', overflowMaxScores: 8000000 }
 * chooseScoreSummaryEngine('auto', true, 5e9);  // { engine: 'duckdb', overflowMaxScores: null }
 */
export function chooseScoreSummaryEngine(
  engine: SummaryEngineName | 'auto',
  hasStore: boolean,
  inputBytes: number,
  memoryBytes: number = totalmem(),
): { engine: SummaryEngineName; overflowMaxScores: number | null } {
  if (engine === 'auto' && !hasStore)
    return { engine: 'memory', overflowMaxScores: autoMemoryMaxScores(memoryBytes) };
  return { engine: chooseSummaryEngine(engine, inputBytes, memoryBytes), overflowMaxScores: null };
}
