import { join } from 'node:path';
import type { ScoreRecord } from '../model/score-record.js';
import { BUNDLE_FILES } from './bundle-files.js';
import type { BundleIssue } from './bundle-read-error.js';
import { readJsonlRows, type RowBatch } from './read-jsonl-rows.js';
import { rowFastChecks } from './row-fast-checks.js';
import { rowSchemas } from './row-schemas.js';

/**
 * Streams `scores.jsonl` of a bundle as batches of validated score records (spec §6).
 *
 * @example
 * for await (const batch of readScoreRows(dir)) for (const score of batch.rows) builder.addScore(score);
 */
export function readScoreRows(
  dir: string,
  options: { onTruncatedLine?: (issue: BundleIssue) => void; register?: boolean } = {},
): AsyncGenerator<RowBatch<ScoreRecord>> {
  const name = BUNDLE_FILES.scores;
  return readJsonlRows(join(dir, name), rowSchemas.score, {
    displayName: name,
    fastCheck: rowFastChecks.score,
    ...options,
  });
}
