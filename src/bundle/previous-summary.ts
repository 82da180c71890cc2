import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AggregateScore } from '../model/summary.js';
import { BUNDLE_FILES } from './bundle-files.js';
import type { BundleIssue } from './bundle-issue.js';
import { BundleReadError } from './bundle-read-error.js';
import { readBundleJson } from './read-bundle-json.js';
import { rowSchemas } from './row-schemas.js';
import { runnerExtraScores } from './runner-extra-scores.js';

/** What re-summarising needs from the summary a bundle already has. */
export interface PreviousSummary {
  /** Size in bytes of the old `summary.json`, or null when there was none. */
  size: number | null;
  /** SHA-256 of the old `summary.json`, or null when there was none. */
  sha256: string | null;
  /** Its runner-contributed aggregates (`runner.*`), carried over unchanged. */
  runnerScores: AggregateScore[];
  /** Problems with the old summary (it is replaced either way). */
  warnings: BundleIssue[];
}

const RUNNER_MARK = Buffer.from('"runner.');

/**
 * Streams the old `summary.json` once (it can be hundreds of MB): hashes it and looks for runner
 * aggregates; only when there are some is the file parsed and validated to carry them over.
 *
 * @example
 * const previous = await previousSummary(dir);
 * accumulator.finish(previous.runnerScores);
 */
export async function previousSummary(dir: string): Promise<PreviousSummary> {
  const file = join(dir, BUNDLE_FILES.summary);
  if (!existsSync(file)) return { size: null, sha256: null, runnerScores: [], warnings: [] };
  let size = 0;
  const hash = createHash('sha256');
  let mentionsRunner = false;
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    hash.update(bytes);
    if (!mentionsRunner) {
      mentionsRunner = Buffer.concat([tail, bytes]).includes(RUNNER_MARK);
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - RUNNER_MARK.length)));
    }
  }
  const sha256 = hash.digest('hex');
  if (!mentionsRunner) return { size, sha256, runnerScores: [], warnings: [] };
  try {
    return {
      size,
      sha256,
      runnerScores: runnerExtraScores(await readBundleJson(dir, BUNDLE_FILES.summary, rowSchemas.summary)),
      warnings: [],
    };
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    const warnings = error.issues.map((issue) => ({
      ...issue,
      message: `previous summary unreadable, its runner aggregates are dropped: ${issue.message}`,
    }));
    return { size, sha256, runnerScores: [], warnings };
  }
}
