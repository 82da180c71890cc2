import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BUNDLE_FILES, DIAGNOSTICS_FILE_NAME } from '../bundle/bundle-files.js';
import { BundleReadError, formatBundleIssue } from '../bundle/bundle-read-error.js';
import { forEachDiagnosticRow } from '../bundle/for-each-diagnostic-row.js';
import { readLineBatches } from '../bundle/read-line-batches.js';
import type { ReportWriter } from '../bundle/report-writer.js';
import { STAGING_PREFIX } from '../bundle/staged-bundle-dir.js';
import { summarizeBundle, type SummarizeBundleResult } from '../bundle/summarize-bundle.js';
import { STATS_FILE_NAME } from '../stats/stats-file-name.js';
import { MergeError } from './merge-error.js';
import { stageMergedBundle } from './stage-merged-bundle.js';

/** Options of {@link mergeBundles}. */
export interface MergeBundlesOptions {
  /** Writes `report.html` into the merged bundle; omit or null for none. */
  reportWriter?: ReportWriter | null;
}

/** What {@link mergeBundles} did. */
export interface MergeBundlesResult {
  dir: string;
  runId: string;
  shards: number;
  trials: number;
  scores: number;
  /** Run ids of the shards when they differ (the first one is kept). */
  runIds: string[];
  /** The merged summary and where it was written. */
  summary: Pick<SummarizeBundleResult, 'summary' | 'dir' | 'summaryPath'>;
}

interface ShardScan {
  dir: string;
  runId: string;
  trials: number;
  scores: number;
}

/** Files a bundle writer makes itself; everything else in a shard (evidence) is copied over. */
const OWN_FILES = new Set<string>([
  ...Object.values(BUNDLE_FILES),
  DIAGNOSTICS_FILE_NAME,
  STATS_FILE_NAME,
  'evalstream.duckdb',
]);

/**
 * Merges run bundles scored in shards (disjoint trials of one run) into one bundle at `outDir`:
 * `tasks.jsonl` is the union of the shards' task lines in first-seen order, `trials.jsonl` and
 * `scores.jsonl` (and `diagnostics.jsonl`, when a shard has one) the shards' lines byte for byte in
 * the order the shards are given, evidence is
 * copied, and `summary.json` (and `stats.json`) is computed from the merged files. When the shards are
 * consecutive pieces of the input, in order, the summary is byte-identical to scoring everything in
 * one process (the summary takes tasks in task order and scores in arrival order within a task).
 * Throws a `MergeError` naming the trials when a trial is in two shards, a task is described
 * differently by two shards, a line is cut off or not JSON, or two shards hold an evidence file with
 * different bytes; the output directory must not exist or be empty. The bundle is built next to
 * `outDir` and renamed into place.
 *
 * @example
 * await mergeBundles(['runs/s1', 'runs/s2', 'runs/s3'], 'runs/all');
 */
export async function mergeBundles(
  shards: readonly string[],
  outDir: string,
  options: MergeBundlesOptions = {},
): Promise<MergeBundlesResult> {
  if (shards.length === 0) throw new MergeError('no bundle to merge');
  const result = await stageMergedBundle(outDir, async (tmp) => {
    const scans: ShardScan[] = [];
    const trialShard = new Map<string, number>();
    const overlaps: string[] = [];
    const tasks = new Map<string, { text: string; shard: number }>();
    for (const [index, shard] of shards.entries()) {
      scans.push(await scanShard(shard, index, shards, trialShard, overlaps, tasks));
    }
    if (overlaps.length > 0) throw MergeError.overlaps(overlaps);
    await writeFile(join(tmp, BUNDLE_FILES.tasks), [...tasks.values()].map((t) => t.text + '\n').join(''));
    const withDiagnostics = shards.some((shard) => existsSync(join(shard, DIAGNOSTICS_FILE_NAME)));
    for (const name of [
      BUNDLE_FILES.trials,
      BUNDLE_FILES.scores,
      ...(withDiagnostics ? [DIAGNOSTICS_FILE_NAME] : []),
    ]) {
      const target = join(tmp, name);
      await writeFile(target, '');
      for (const shard of shards) {
        const file = join(shard, name);
        if (existsSync(file))
          await pipeline(createReadStream(file), createWriteStream(target, { flags: 'a' }));
      }
    }
    const first = shards[0] as string;
    await copyFile(join(first, BUNDLE_FILES.metadata), join(tmp, BUNDLE_FILES.metadata));
    // the first shard's manifest: its run id and artifact names
    await copyFile(join(first, BUNDLE_FILES.run), join(tmp, BUNDLE_FILES.run));
    for (const shard of shards) await copyEvidence(shard, shard, tmp);
    const { summary } = await summarizeBundle(tmp, { reportWriter: null });
    const trials = scans.reduce((n, s) => n + s.trials, 0);
    return { shards: scans, trials, scores: scans.reduce((n, s) => n + s.scores, 0), summary };
  });
  if (options.reportWriter) await options.reportWriter(result.dir);
  return result;
}

async function scanShard(
  shard: string,
  index: number,
  shards: readonly string[],
  trialShard: Map<string, number>,
  overlaps: string[],
  tasks: Map<string, { text: string; shard: number }>,
): Promise<ShardScan> {
  for (const name of [BUNDLE_FILES.run, BUNDLE_FILES.metadata, BUNDLE_FILES.scores]) {
    if (!existsSync(join(shard, name)))
      throw new MergeError(`${join(shard, name)}: missing (not a run bundle?)`);
  }
  let runId: string;
  try {
    runId = String(
      (JSON.parse(await readFile(join(shard, BUNDLE_FILES.run), 'utf8')) as { run_id: unknown }).run_id,
    );
  } catch (error) {
    throw new MergeError(`${join(shard, BUNDLE_FILES.run)}: ${(error as Error).message}`);
  }
  const rows = async (
    name: string,
    onRow: (row: Record<string, unknown>, line: number, text: string) => void,
  ): Promise<void> => {
    const file = join(shard, name);
    if (!existsSync(file)) return;
    for await (const { texts, lines, lastUnterminated } of readLineBatches(file, file)) {
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i] as string;
        const line = lines[i] as number;
        if (lastUnterminated && i === texts.length - 1)
          throw new MergeError(`${file}: line ${line}: cut off (the shard is incomplete)`);
        let row: unknown;
        try {
          row = JSON.parse(text);
        } catch (error) {
          throw new MergeError(`${file}: line ${line}: not JSON: ${(error as Error).message}`);
        }
        if (row === null || typeof row !== 'object' || Array.isArray(row))
          throw new MergeError(`${file}: line ${line}: not a JSON object`);
        onRow(row as Record<string, unknown>, line, text);
      }
    }
  };
  const field = (row: Record<string, unknown>, key: string, file: string, line: number): string => {
    const value = row[key];
    if (typeof value !== 'string')
      throw new MergeError(`${join(shard, file)}: line ${line}: ${key}: expected a string`);
    return value;
  };
  await rows(BUNDLE_FILES.tasks, (row, line, text) => {
    const id = field(row, 'id', BUNDLE_FILES.tasks, line);
    const seen = tasks.get(id);
    if (seen === undefined) tasks.set(id, { text, shard: index });
    else if (seen.text !== text)
      throw new MergeError(
        `${join(shard, BUNDLE_FILES.tasks)}: line ${line}: task '${id}' differs from its description in ${shards[seen.shard]}`,
      );
  });
  let trials = 0;
  await rows(BUNDLE_FILES.trials, (row, line) => {
    trials += 1;
    const key = `${field(row, 'task_id', BUNDLE_FILES.trials, line)}\u0000${field(row, 'id', BUNDLE_FILES.trials, line)}`;
    const other = trialShard.get(key);
    if (other !== undefined) {
      overlaps.push(`(${String(row['task_id'])}, ${String(row['id'])}) in ${shards[other]} and ${shard}`);
    } else trialShard.set(key, index);
  });
  let scores = 0;
  await rows(BUNDLE_FILES.scores, () => {
    scores += 1;
  });
  try {
    await forEachDiagnosticRow(shard, () => {});
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    throw new MergeError(`${shard}: ${error.issues.map(formatBundleIssue).join('; ')}`);
  }
  return { dir: shard, runId, trials, scores };
}

async function copyEvidence(shard: string, from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (from === shard && (OWN_FILES.has(entry.name) || entry.name.startsWith(STAGING_PREFIX))) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      await mkdir(target, { recursive: true });
      await copyEvidence(shard, source, target);
    } else if (entry.isFile()) {
      if (existsSync(target)) {
        const [x, y] = await Promise.all([readFile(source), readFile(target)]);
        if (!x.equals(y))
          throw new MergeError(`${source}: another shard holds a different file at this path`);
      } else await copyFile(source, target);
    }
  }
}
