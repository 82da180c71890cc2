/**
 * `--engine auto`: in memory while the input is small (up to 1 GiB and 1/16 of the RAM), DuckDB
 * beyond; an explicit engine is kept whatever the size.
 */
import { describe, expect, it } from 'vitest';
import { AUTO_MEMORY_MAX_BYTES, chooseSummaryEngine } from '../../src/sql-summary/choose-summary-engine.js';

const GiB = 1024 ** 3;

describe('chooseSummaryEngine', () => {
  it('keeps a small run in memory and gives a large one to DuckDB', () => {
    expect(chooseSummaryEngine('auto', 0, 24 * GiB)).toBe('memory');
    expect(chooseSummaryEngine('auto', 240e6, 24 * GiB)).toBe('memory');
    expect(chooseSummaryEngine('auto', AUTO_MEMORY_MAX_BYTES, 24 * GiB)).toBe('memory');
    expect(chooseSummaryEngine('auto', AUTO_MEMORY_MAX_BYTES + 1, 24 * GiB)).toBe('duckdb');
    expect(chooseSummaryEngine('auto', 12e9, 24 * GiB)).toBe('duckdb');
  });

  it('lowers the bound on a machine with little memory', () => {
    expect(chooseSummaryEngine('auto', 256 * 1024 ** 2, 4 * GiB)).toBe('memory');
    expect(chooseSummaryEngine('auto', 256 * 1024 ** 2 + 1, 4 * GiB)).toBe('duckdb');
  });

  it('never overrides an explicit engine', () => {
    expect(chooseSummaryEngine('memory', 50e9, 24 * GiB)).toBe('memory');
    expect(chooseSummaryEngine('duckdb', 10, 24 * GiB)).toBe('duckdb');
  });
});
