import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { gzipErrorReason } from '../evidence/gzip-error-reason.js';
import { isGzipFile } from '../evidence/is-gzip-file.js';
import { checkInsideRoot } from './check-inside-root.js';
import { type InputFormat, detectFormat } from './detect-format.js';
import { InputError } from './input-error.js';
import { sortByUtf8 } from '../util/sort-by-utf8.js';

/** Files of a directory whose format is being detected at once. */
const DETECTIONS_AT_ONCE = 16;
const FORMAT_NAMES = 'bundle, harbor, atif, otlp, gym';
const FILE_PATTERNS: Record<'atif' | 'otlp' | 'gym', RegExp> = {
  atif: /\.json(\.gz)?$/i,
  otlp: /\.(json|jsonl|ndjson|pb|binpb)(\.gz)?$/i,
  gym: /\.(jsonl|ndjson)(\.gz)?$/i,
};

/** One source of a run's inputs: a bundle or Harbor job directory, or the files of one format. */
export type InputPlan =
  { kind: 'bundle' | 'harbor'; dir: string } | { kind: 'atif' | 'otlp' | 'gym'; files: string[] };

/**
 * How `openInputs` reads the given inputs, decided before anything is read: the format of each input
 * (detected unless `forced`), bundles and Harbor jobs in input order, and the ATIF, OTLP and Gym files
 * each gathered into one source placed where the first of their files was named; a directory that is
 * neither a bundle nor a Harbor job is expanded to its files (recursively, in name order;
 * undetectable files skipped). An input whose format cannot be told errors with an `InputError`.
 *
 * @example
 * await planInputs(['jobs/2026-01-05', 'a.atif.json'], 'auto'); // [{ kind: 'harbor', dir }, { kind: 'atif', files }]
 */
export async function planInputs(
  inputs: readonly string[],
  forced: 'auto' | InputFormat,
): Promise<InputPlan[]> {
  const plans: InputPlan[] = [];
  const fileGroups = new Map<'atif' | 'otlp' | 'gym', string[]>();
  const addFile = (format: 'atif' | 'otlp' | 'gym', file: string): void => {
    let group = fileGroups.get(format);
    if (group === undefined) {
      group = [];
      fileGroups.set(format, group);
      plans.push({ kind: format, files: group });
    }
    group.push(file);
  };
  for (const input of inputs) {
    const path = resolve(input);
    const st = await stat(path).catch((error: Error) => {
      throw new InputError(`cannot read input: ${error.message}`, { file: input });
    });
    if (st.isFile()) await refuseUnreadable(path, input);
    const detected = forced === 'auto' ? await detectFormat(path) : forced;
    if (st.isDirectory()) {
      if (detected === 'bundle' || detected === 'harbor') {
        plans.push({ kind: detected, dir: path });
        continue;
      }
      const fileFormat = forced === 'auto' || forced === 'bundle' || forced === 'harbor' ? null : forced;
      let found = 0;
      const files = await listFilesRecursive(path);
      // each file's head is read to tell its format: several at once, the I/O overlaps
      const formats = await mapInOrder(files, DETECTIONS_AT_ONCE, async (file) =>
        fileFormat === null ? detectFormat(file) : FILE_PATTERNS[fileFormat].test(file) ? fileFormat : null,
      );
      for (const [i, file] of files.entries()) {
        const format = formats[i];
        if (format === 'atif' || format === 'otlp' || format === 'gym') {
          addFile(format, file);
          found += 1;
        }
      }
      if (found === 0) {
        throw new InputError(`no ${forced === 'auto' ? 'recognisable' : forced} inputs in this directory`, {
          file: input,
        });
      }
      continue;
    }
    if (detected === null) {
      throw new InputError(`cannot tell the input format; name it with --format (${FORMAT_NAMES})`, {
        file: input,
      });
    }
    if (detected === 'bundle' || detected === 'harbor') {
      throw new InputError(`a ${detected} input is a directory, not a file`, { file: input });
    }
    addFile(detected, path);
  }
  return plans;
}

/** Files under `dir`; symlinks are followed inside `dir` (each directory once), refused outside it. */
async function listFilesRecursive(dir: string): Promise<string[]> {
  const out: string[] = [];
  const root = await realpath(dir);
  const seen = new Set<string>();
  const walk = async (d: string): Promise<void> => {
    const real = await realpath(d);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = sortByUtf8(await readdir(d, { withFileTypes: true }), (e) => e.name);
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isSymbolicLink()) {
        await checkInsideRoot(root, full);
        const st = await stat(full).catch(() => null);
        if (st?.isDirectory() === true) await walk(full);
        else if (st?.isFile() === true) out.push(full);
      } else if (e.isDirectory()) await walk(full);
      else if (e.isFile()) out.push(full);
    }
  };
  await walk(dir);
  return out;
}

/** An empty file, or a gzip file that does not inflate, said as such (before format detection). */
async function refuseUnreadable(path: string, input: string): Promise<void> {
  const st = await stat(path);
  if (st.size === 0) throw new InputError('the file is empty', { file: input });
  if (!(await isGzipFile(path))) return;
  let inflated = 0;
  const raw = createReadStream(path);
  try {
    for await (const chunk of raw.pipe(createGunzip()) as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      break;
    }
  } catch (error) {
    throw new InputError(gzipErrorReason(error), { file: input, offset: 0 });
  } finally {
    raw.destroy();
  }
  if (inflated === 0) throw new InputError('the file is empty (an empty gzip stream)', { file: input });
}

/**
 * `items.map(fn)` for an async `fn`, with at most `limit` calls pending at once; the results keep the
 * items' order. Rejects with the first rejection (the calls already started still settle).
 *
 * @example
 * const formats = await mapInOrder(files, 16, detectFormat);
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}
