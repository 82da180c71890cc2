import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { BUNDLE_FILES } from '../bundle/bundle-files.js';
import type { Summary } from '../model/summary.js';
import type { MergeBundlesResult } from './merge-bundles.js';
import { MergeError } from './merge-error.js';

/** What a merge wrote: its shards' run ids (the first one is kept), trials, scores and summary. */
interface MergedFiles {
  shards: readonly { runId: string }[];
  trials: number;
  scores: number;
  summary: Summary;
}

/**
 * Builds a merged bundle: refuses an `outDir` that exists and is not empty, lets `build` write the
 * bundle into a new directory beside it, then renames that into place (and removes it when `build`
 * throws).
 *
 * @example
 * const result = await stageMergedBundle('runs/all', (dir) => writeShards(dir));
 */
export async function stageMergedBundle(
  outDir: string,
  build: (dir: string) => Promise<MergedFiles>,
): Promise<MergeBundlesResult> {
  const out = resolve(outDir);
  if (existsSync(out) && (await readdir(out)).length > 0)
    throw new MergeError(`${outDir}: the output directory exists and is not empty`);
  const tmp = join(dirname(out), `${basename(out)}.evalstream-tmp-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp, { recursive: true });
  let merged: MergedFiles;
  try {
    merged = await build(tmp);
    await rm(out, { recursive: true, force: true });
    await rename(tmp, out);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const runIds = [...new Set(merged.shards.map((s) => s.runId))];
  return {
    dir: out,
    runId: runIds[0] as string,
    shards: merged.shards.length,
    trials: merged.trials,
    scores: merged.scores,
    runIds: runIds.length > 1 ? runIds : [],
    summary: { summary: merged.summary, dir: out, summaryPath: join(out, BUNDLE_FILES.summary) },
  };
}
