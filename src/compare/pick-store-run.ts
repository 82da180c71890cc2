import { InputError } from '../sources/input-error.js';

/** A run a store (or a Parquet export) holds: its id and when it was written (ISO text, may be null). */
export interface StoredRun {
  runId: string;
  writtenAt: string | null;
}

/**
 * Chooses the run to read from a store that holds `runs`: `requested` when given (it must be there),
 * else the newest by `written_at` (the greatest run id among equals). Throws an `InputError` naming
 * the store and the runs it holds when the requested run is absent or the store holds no run.
 *
 * @example
 * pickStoreRun('runs/all.duckdb', [{ runId: 'R1', writtenAt: '2026-01-01T00:00:00.000Z' }], null); // 'R1'
 */
export function pickStoreRun(path: string, runs: readonly StoredRun[], requested: string | null): string {
  const held = (): string =>
    runs
      .map((r) => r.runId)
      .sort()
      .join(', ');
  if (requested !== null) {
    if (runs.some((r) => r.runId === requested)) return requested;
    throw new InputError(`no run '${requested}' (runs held: ${held() || 'none'})`, {
      file: path,
      field: 'run_id',
    });
  }
  if (runs.length === 0) throw new InputError('holds no run', { file: path, field: 'run_id' });
  let best = runs[0] as StoredRun;
  for (const r of runs) {
    const newer = (r.writtenAt ?? '') > (best.writtenAt ?? '');
    const same = (r.writtenAt ?? '') === (best.writtenAt ?? '');
    if (newer || (same && r.runId > best.runId)) best = r;
  }
  return best.runId;
}
