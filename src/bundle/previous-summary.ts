import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { AggregateScore } from '../model/summary.js';
import { BUNDLE_FILES } from './bundle-files.js';
import { type BundleIssue, BundleReadError } from './bundle-read-error.js';
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
  const { size, mentionsRunner } = await scanForRunnerMark(file);
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

/** The file's size and whether it contains `"runner.`: 4 MiB reads into one buffer, a native search each. */
async function scanForRunnerMark(file: string): Promise<{ size: number; mentionsRunner: boolean }> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const edge = RUNNER_MARK.length - 1;
    const buf = Buffer.allocUnsafe((4 << 20) + edge);
    let have = 0; // bytes [0, have) repeat the previous read's last bytes (a mark split across reads)
    for (;;) {
      const { bytesRead } = await handle.read(buf, have, buf.length - have, null);
      if (bytesRead === 0) return { size, mentionsRunner: false };
      const end = have + bytesRead;
      if (buf.subarray(0, end).includes(RUNNER_MARK)) return { size, mentionsRunner: true };
      have = Math.min(edge, end);
      buf.copy(buf, 0, end - have, end);
    }
  } finally {
    await handle.close();
  }
}
