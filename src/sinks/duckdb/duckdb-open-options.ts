/**
 * How to open a DuckDB file. Unset options keep DuckDB's defaults; extensions are never installed at
 * run time (`autoinstall_known_extensions` is always off; json and parquet are statically linked).
 */
export interface DuckDBOpenOptions {
  /** Open with `access_mode = READ_ONLY` (the file must exist). Default false. */
  readOnly?: boolean;
  /** DuckDB `memory_limit`, e.g. `'4GB'`; beyond it DuckDB spills to `tempDirectory`. */
  memoryLimit?: string;
  /** DuckDB `temp_directory` for spilling. */
  tempDirectory?: string;
  /** DuckDB `threads`. */
  threads?: number;
}
