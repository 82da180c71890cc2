/** One column of a store table: its name and DuckDB SQL type. */
import type { DuckDBConnection } from '@duckdb/node-api';

export interface StoreColumn {
  readonly name: string;
  readonly type: string;
}

/** One table of the evalstream DuckDB store; `order` is the natural row order (for exports and tests). */
export interface StoreTable {
  readonly name: string;
  readonly columns: readonly StoreColumn[];
  readonly order: string;
}

function table(name: string, order: string, columns: [string, string][]): StoreTable {
  return { name, order, columns: columns.map(([n, type]) => ({ name: n, type })) };
}

/**
 * The tables of the evalstream DuckDB store (see docs/sql.md). Every table carries `run_id`; a file
 * holds many runs. Ordinals keep the run's order: `task_ordinal` (task list), `trial_ordinal` (trial
 * order), `score_ordinal` (SDK score order). Timestamps of spans are exact unsigned nanoseconds.
 *
 * @example
 * STORE_TABLES.map((t) => t.name); // ['runs', 'tasks', ..., 'tool_calls']
 */
export const STORE_TABLES: readonly StoreTable[] = [
  table('runs', 'run_id', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['has_task_specs', 'BOOLEAN NOT NULL'],
    ['metadata', 'JSON'],
    ['written_at', 'VARCHAR'],
  ]),
  table('tasks', 'run_id, task_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['task_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['intent', 'VARCHAR'],
    ['inputs', 'JSON'],
    ['reference', 'JSON'],
    ['metrics', 'JSON'],
    ['views', 'JSON'],
    ['metadata', 'JSON'],
  ]),
  table('task_metrics', 'run_id, task_ordinal, metric_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['task_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['metric_ordinal', 'INTEGER NOT NULL'],
    ['metric_type', 'VARCHAR NOT NULL'],
  ]),
  table('task_outputs', 'run_id, task_ordinal, metric_ordinal, output_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['task_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['metric_ordinal', 'INTEGER NOT NULL'],
    ['metric_type', 'VARCHAR NOT NULL'],
    ['output_ordinal', 'INTEGER NOT NULL'],
    ['output_name', 'VARCHAR NOT NULL'],
    ['value_schema', 'VARCHAR NOT NULL'],
    ['kind', 'VARCHAR NOT NULL'],
    ['required', 'BOOLEAN NOT NULL'],
    ['description', 'VARCHAR'],
  ]),
  table('task_views', 'run_id, task_ordinal, view_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['task_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['view_ordinal', 'INTEGER NOT NULL'],
    ['view_name', 'VARCHAR NOT NULL'],
    ['reducer', 'VARCHAR NOT NULL'],
  ]),
  table('task_view_signals', 'run_id, task_ordinal, view_ordinal, signal_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['task_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['view_ordinal', 'INTEGER NOT NULL'],
    ['view_name', 'VARCHAR NOT NULL'],
    ['signal_ordinal', 'INTEGER NOT NULL'],
    ['metric_type', 'VARCHAR NOT NULL'],
    ['output_name', 'VARCHAR NOT NULL'],
    ['weight', 'DOUBLE'],
  ]),
  table('trials', 'run_id, trial_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['trial_ordinal', 'BIGINT NOT NULL'],
    ['trial_id', 'VARCHAR NOT NULL'],
    ['task_id', 'VARCHAR'],
    ['status', 'VARCHAR'],
    ['output_text', 'VARCHAR'],
    ['output', 'JSON'],
    ['evidence', 'JSON'],
    ['error_type', 'VARCHAR'],
    ['error', 'JSON'],
    ['prompt_tokens', 'BIGINT'],
    ['completion_tokens', 'BIGINT'],
    ['total_tokens', 'BIGINT'],
    ['cache_creation_tokens', 'BIGINT'],
    ['cache_read_tokens', 'BIGINT'],
    ['runtime_sec', 'DOUBLE'],
    ['cost_usd', 'DOUBLE'],
    ['metadata', 'JSON'],
  ]),
  table('scores', 'run_id, score_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['score_ordinal', 'BIGINT NOT NULL'],
    ['score_id', 'VARCHAR'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['trial_id', 'VARCHAR NOT NULL'],
    ['metric_type', 'VARCHAR NOT NULL'],
    ['occurrence', 'INTEGER NOT NULL'],
    ['status', 'VARCHAR NOT NULL'],
    ['is_trial_failure', 'BOOLEAN NOT NULL'],
    ['output_count', 'INTEGER NOT NULL'],
    ['diagnostics', 'JSON'],
    ['metadata', 'JSON'],
  ]),
  table('score_outputs', 'run_id, score_ordinal, output_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['score_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR NOT NULL'],
    ['trial_id', 'VARCHAR NOT NULL'],
    ['occurrence', 'INTEGER NOT NULL'],
    ['metric_type', 'VARCHAR NOT NULL'],
    ['output_ordinal', 'INTEGER NOT NULL'],
    ['output_name', 'VARCHAR NOT NULL'],
    ['is_first', 'BOOLEAN NOT NULL'],
    ['declared_kind', 'VARCHAR'],
    ['value_type', 'VARCHAR NOT NULL'],
    ['num_value', 'DOUBLE'],
    ['label_value', 'VARCHAR'],
    ['json_value', 'JSON'],
  ]),
  table('spans', 'run_id, trial_ordinal, span_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['trial_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR'],
    ['trial_id', 'VARCHAR NOT NULL'],
    ['span_ordinal', 'INTEGER NOT NULL'],
    ['trace_id', 'VARCHAR NOT NULL'],
    ['span_id', 'VARCHAR NOT NULL'],
    ['parent_span_id', 'VARCHAR'],
    ['name', 'VARCHAR NOT NULL'],
    ['kind', 'VARCHAR NOT NULL'],
    ['start_time_unix_nano', 'UBIGINT NOT NULL'],
    ['end_time_unix_nano', 'UBIGINT NOT NULL'],
    ['status_code', 'VARCHAR NOT NULL'],
    ['status_message', 'VARCHAR'],
    ['attributes', 'JSON'],
    ['resource_attributes', 'JSON'],
    ['scope_name', 'VARCHAR'],
  ]),
  table('tool_calls', 'run_id, trial_ordinal, call_ordinal', [
    ['run_id', 'VARCHAR NOT NULL'],
    ['trial_ordinal', 'BIGINT NOT NULL'],
    ['task_id', 'VARCHAR'],
    ['trial_id', 'VARCHAR NOT NULL'],
    ['call_ordinal', 'INTEGER NOT NULL'],
    ['call_id', 'VARCHAR'],
    ['name', 'VARCHAR NOT NULL'],
    ['arguments', 'JSON'],
    ['result', 'JSON'],
    ['is_error', 'BOOLEAN NOT NULL'],
    ['origin', 'VARCHAR NOT NULL'],
    ['step_id', 'BIGINT'],
    ['span_id', 'VARCHAR'],
  ]),
];

/**
 * Creates the store's tables that do not exist yet (idempotent; existing rows are kept).
 *
 * @example
 * await ensureStoreSchema(connection);
 * await connection.run('SELECT count(*) FROM scores');
 */
export async function ensureStoreSchema(connection: DuckDBConnection): Promise<void> {
  for (const t of STORE_TABLES) {
    const columns = t.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
    await connection.run(`CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${columns})`);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Deletes every row of one run from every store table (inside the caller's transaction, if any).
 *
 * @example
 * await deleteRunRows(connection, 'run-1');
 */
export async function deleteRunRows(connection: DuckDBConnection, runId: string): Promise<void> {
  for (const t of STORE_TABLES) {
    await connection.run(`DELETE FROM "${t.name}" WHERE run_id = $run`, { run: runId });
  }
}

/**
 * A SQL string literal (single quotes doubled).
 *
 * @example
 * sqlString("it's"); // "'it''s'"
 */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
