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
  /** Its runner-contributed aggregates (`runner.*`), carried over unchanged. */
  runnerScores: AggregateScore[];
  /** Problems with the old summary (it is replaced either way). */
  warnings: BundleIssue[];
}

const RUNNER_MARK = Buffer.from('"runner.');

/**
 * Streams the old `summary.json` once (it can be hundreds of MB) looking for runner aggregates; only
 * when there are some is the file parsed and validated to carry them over. (Whether the new summary is
 * identical is decided while writing it: `StagedBundleDir.writeChunks(..., compareWith)`.)
 *
 * @example
 * const previous = await previousSummary(dir);
 * accumulator.finish(previous.runnerScores);
 */
export async function previousSummary(dir: string): Promise<PreviousSummary> {
  const file = join(dir, BUNDLE_FILES.summary);
  if (!existsSync(file)) return { size: null, runnerScores: [], warnings: [] };
  let size = 0;
  let mentionsRunner = false;
  let tail = Buffer.alloc(0);
  const edge = RUNNER_MARK.length - 1;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (!mentionsRunner) {
      // a mark split across two chunks, then the chunk itself
      mentionsRunner =
        Buffer.concat([tail, bytes.subarray(0, edge)]).includes(RUNNER_MARK) || bytes.includes(RUNNER_MARK);
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - edge)));
    }
  }
  if (!mentionsRunner) return { size, runnerScores: [], warnings: [] };
  try {
    return {
      size,
      runnerScores: runnerExtraScores(await readBundleJson(dir, BUNDLE_FILES.summary, rowSchemas.summary)),
      warnings: [],
    };
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    const warnings = error.issues.map((issue) => ({
      ...issue,
      message: `previous summary unreadable, its runner aggregates are dropped: ${issue.message}`,
    }));
    return { size, runnerScores: [], warnings };
  }
}
