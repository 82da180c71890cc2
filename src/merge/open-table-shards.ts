import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isDuckDBFile } from '../compare/is-duckdb-file.js';
import type { RunRef } from '../compare/parse-run-ref.js';
import { pickStoreRun, type StoredRun } from '../compare/pick-store-run.js';
import { openDuckDB, type DuckDBSession } from '../sinks/duckdb/open-duckdb.js';
import { STORE_TABLES } from '../sinks/duckdb/store-tables.js';
import { MergeError } from './merge-error.js';

/** The store tables a merge reads; each becomes the temp view `m_<table>` with a `shard` column. */
export const MERGED_TABLES = ['runs', 'tasks', 'trials', 'scores', 'score_outputs'] as const;

/** One shard of a table merge: where it was read from and the run taken from it. */
export interface TableShard {
  /** As given on the command line. */
  source: string;
  runId: string;
}

/** An in-memory DuckDB whose temp views `m_runs`, `m_tasks`, … hold every shard's run (see {@link openTableShards}). */
export interface TableShards {
  db: DuckDBSession;
  shards: TableShard[];
}

/**
 * Opens the runs of several Parquet exports (`evalstream export --parquet DIR`) and DuckDB stores as
 * one set of tables: in an in-memory DuckDB, the temp view `m_<table>` of each of
 * {@link MERGED_TABLES} is every shard's rows of its run, with a `shard` column (the shard's
 * position) in place of `run_id`. The Parquet files of all shards are read by one `read_parquet([...])`
 * per table; stores are attached read-only. A shard's run is the one its `#RUN_ID` names, else its
 * newest. Throws a `MergeError` naming the shard that is neither, cannot be read, or lacks the run.
 *
 * @example
 * const { db, shards } = await openTableShards([{ path: 'out/s1', runId: null }, { path: 's2.duckdb', runId: 'R' }]);
 * await db.connection.runAndReadAll('SELECT shard, count(*) FROM m_scores GROUP BY shard');
 */
export async function openTableShards(
  refs: readonly RunRef[],
  sources: readonly string[],
): Promise<TableShards> {
  const db = await openDuckDB(':memory:');
  try {
    const c = db.connection;
    const shards: TableShard[] = [];
    // table → parquet files of every shard, and which shard each file belongs to
    const files = new Map<string, { file: string; shard: number }[]>();
    const storeParts = new Map<string, string[]>();
    for (const [shard, ref] of refs.entries()) {
      const source = sources[shard] ?? ref.path;
      if (isDuckDBFile(ref.path)) {
        const alias = `s${shard}`;
        try {
          await c.run(`ATTACH ${sqlString(resolve(ref.path))} AS ${alias} (READ_ONLY)`);
        } catch (error) {
          throw new MergeError(`${source}: cannot open the store: ${(error as Error).message}`);
        }
        const runs = await rowsOf(c, `SELECT run_id, written_at FROM ${alias}.runs`, source);
        const runId = choose(source, runs, ref.runId);
        shards.push({ source, runId });
        for (const table of MERGED_TABLES) {
          const list = storeParts.get(table) ?? [];
          list.push(
            `SELECT ${shard} AS shard, ${columnsOf(table)} FROM ${alias}."${table}" WHERE run_id = ${sqlString(runId)}`,
          );
          storeParts.set(table, list);
        }
        continue;
      }
      const runFiles = await rowsOf(
        c,
        `SELECT run_id, written_at, filename FROM read_parquet(${sqlString(join(resolve(ref.path), 'runs', '*', '*.parquet'))},
           hive_partitioning = true, hive_types = {'run_id': VARCHAR}, filename = true)`,
        source,
      );
      const runId = choose(source, runFiles, ref.runId);
      shards.push({ source, runId });
      const partition = basename(dirname(String(runFiles.find((r) => r.runId === runId)?.filename)));
      for (const table of MERGED_TABLES) {
        const dir = join(resolve(ref.path), table, partition);
        let names: string[];
        try {
          names = readdirSync(dir).filter((n) => n.endsWith('.parquet'));
        } catch {
          names = []; // a table without rows for the run has no directory
        }
        const list = files.get(table) ?? [];
        for (const n of names.sort()) list.push({ file: join(dir, n), shard });
        files.set(table, list);
      }
    }
    for (const table of MERGED_TABLES) {
      const parts = [...(storeParts.get(table) ?? [])];
      const list = files.get(table) ?? [];
      if (list.length > 0) {
        await c.run(`CREATE OR REPLACE TEMP TABLE "_m_files_${table}" (filename VARCHAR, shard INTEGER)`);
        const values = list.map((f) => `(${sqlString(f.file)}, ${f.shard})`).join(', ');
        await c.run(`INSERT INTO "_m_files_${table}" VALUES ${values}`);
        parts.push(
          `SELECT f.shard, ${columnsOf(table, 'p.')}
           FROM read_parquet([${list.map((f) => sqlString(f.file)).join(', ')}],
             hive_partitioning = false, union_by_name = true, filename = true) p
           JOIN "_m_files_${table}" f USING (filename)`,
        );
      }
      if (parts.length === 0)
        parts.push(`SELECT NULL::INTEGER AS shard, ${emptyColumnsOf(table)} WHERE false`);
      await c.run(`CREATE OR REPLACE TEMP VIEW m_${table} AS ${parts.join('\nUNION ALL BY NAME\n')}`);
    }
    return { db, shards };
  } catch (error) {
    db.close();
    throw error;
  }
}

interface RunRow extends StoredRun {
  filename?: unknown;
}

async function rowsOf(c: DuckDBSession['connection'], sql: string, source: string): Promise<RunRow[]> {
  let rows;
  try {
    rows = (await c.runAndReadAll(sql)).getRows();
  } catch (error) {
    throw new MergeError(`${source}: not an evalstream store or Parquet export: ${(error as Error).message}`);
  }
  return rows.map(([id, at, filename]) => ({
    runId: String(id),
    writtenAt: at === null || at === undefined ? null : String(at),
    filename,
  }));
}

function choose(source: string, runs: readonly StoredRun[], requested: string | null): string {
  try {
    return pickStoreRun(source, runs, requested);
  } catch (error) {
    throw new MergeError((error as Error).message);
  }
}

function storeColumns(table: string): readonly { name: string; type: string }[] {
  const t = STORE_TABLES.find((x) => x.name === table);
  if (t === undefined) throw new Error(`no store table ${table}`);
  return t.columns.filter((col) => col.name !== 'run_id');
}

function columnsOf(table: string, prefix = ''): string {
  return storeColumns(table)
    .map((col) => `${prefix}"${col.name}"`)
    .join(', ');
}

function emptyColumnsOf(table: string): string {
  return storeColumns(table)
    .map((col) => `NULL::${col.type.replace(' NOT NULL', '')} AS "${col.name}"`)
    .join(', ');
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
