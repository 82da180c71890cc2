import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import type { BundleIssue } from './bundle-read-error.js';
import { DIAGNOSTICS_FILE_NAME } from './bundle-files.js';
import { forEachJsonlRow } from './read-jsonl-rows.js';
import { rowSchemas } from './row-schemas.js';

/**
 * Reads a bundle's `diagnostics.jsonl`, when it has one, and hands each validated row to `onRow` in
 * file order with its text and 1-based line; resolves to false when the bundle has no such file. A
 * bad line rejects with a `BundleReadError` naming the file, line and field, as for the SDK's files.
 *
 * @example
 * const rows: TrialDiagnosticRow[] = [];
 * await forEachDiagnosticRow('runs/r1', (row) => rows.push(row));
 */
export async function forEachDiagnosticRow(
  dir: string,
  onRow: (row: TrialDiagnosticRow, text: string, line: number) => void,
  options: { onTruncatedLine?: (issue: BundleIssue) => void } = {},
): Promise<boolean> {
  const file = join(dir, DIAGNOSTICS_FILE_NAME);
  if (!existsSync(file)) return false;
  await forEachJsonlRow(
    file,
    rowSchemas.diagnostic,
    { displayName: DIAGNOSTICS_FILE_NAME, register: false, ...options },
    onRow,
  );
  return true;
}
