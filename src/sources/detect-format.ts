import { createReadStream, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { isGzipFile } from '../evidence/is-gzip-file.js';
import { isFilePath } from '../util/path-kind.js';

/** The input formats `openInputs` reads. */
export type InputFormat = 'bundle' | 'harbor' | 'atif' | 'otlp' | 'gym';

const HEAD_BYTES = 64 * 1024;
const FIRST_LINE_LIMIT = 64 * 1024 * 1024;
const OTLP_KEYS =
  /"(resourceSpans|resource_spans|batches|scopeSpans|scope_spans|instrumentationLibrarySpans|resourceLogs|resource_logs|scopeLogs|scope_logs)"\s*:/;
const ATIF_VERSION = /"schema_version"\s*:\s*"ATIF-/;
const OTLP_ROW_KEYS = ['resourceSpans', 'resource_spans', 'batches', 'resourceLogs', 'resource_logs'];
const GYM_KEYS = /"(_ng_task_index|_ng_rollout_index)"\s*:/;

/**
 * The format of an input path, from its name and content, or null when it cannot tell. Directories:
 * with `run.json` → `bundle`; a Harbor trial dir (a `result.json` with `trial_name`) or a dir whose
 * subdirectories hold `result.json` → `harbor`. Files: `*.atif.json` → `atif`; `*.pb`/`*.binpb` →
 * `otlp`; JSON lines (`.jsonl`, `.ndjson`) by the first row's keys (`_ng_task_index` /
 * `_ng_rollout_index` → `gym`, `resourceSpans`/`batches`/`resourceLogs` → `otlp`); other files by the first of those
 * keys or an `"schema_version": "ATIF-..."` in the first 64 KiB. Gzip is looked through.
 *
 * @example
 * await detectFormat('jobs/2026-01-05'); // 'harbor'
 * await detectFormat('dump.jsonl.gz'); // 'otlp'
 */
export async function detectFormat(path: string): Promise<InputFormat | null> {
  // synchronous: a directory of many small files is detected file by file (see readInputFile)
  const st = statSync(path);
  if (st.isDirectory()) return detectDirectory(path);
  const name = basename(path).toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.atif.json')) return 'atif';
  if (name.endsWith('.pb') || name.endsWith('.binpb')) return 'otlp';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) {
    const line = await firstLine(path);
    if (line !== null) {
      try {
        const row = JSON.parse(line) as unknown;
        if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
          if ('_ng_task_index' in row || '_ng_rollout_index' in row) return 'gym';
          if (OTLP_ROW_KEYS.some((key) => key in row)) return 'otlp';
        }
        return null;
      } catch {
        // fall through to the textual sniff
      }
    }
  }
  return sniff(await head(path));
}

async function detectDirectory(dir: string): Promise<InputFormat | null> {
  if (isFilePath(join(dir, 'run.json'))) return 'bundle';
  const own = await readJsonObject(join(dir, 'result.json'));
  if (own !== null && 'trial_name' in own) return 'harbor';
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (e.isDirectory() && isFilePath(join(dir, e.name, 'result.json'))) return 'harbor';
  }
  return null;
}

function sniff(text: string): InputFormat | null {
  const hits: [number, InputFormat][] = [];
  for (const [re, format] of [
    [GYM_KEYS, 'gym'],
    [ATIF_VERSION, 'atif'],
    [OTLP_KEYS, 'otlp'],
  ] as const) {
    const m = re.exec(text);
    if (m !== null) hits.push([m.index, format]);
  }
  hits.sort((a, b) => a[0] - b[0]);
  return hits[0]?.[1] ?? null;
}

async function readJsonObject(path: string): Promise<Record<string, unknown> | null> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Reads decompressed bytes until `done(chunks)` says so or the file ends. */
async function readUntil(path: string, done: (text: string) => boolean, limit: number): Promise<string> {
  const raw = createReadStream(path, { highWaterMark: HEAD_BYTES });
  const stream = (await isGzipFile(path)) ? raw.pipe(createGunzip()) : raw;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit || done(chunk.toString('latin1'))) break;
    }
  } catch {
    // a truncated gzip head still gives what was inflated so far
  } finally {
    raw.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function head(path: string): Promise<string> {
  return (await readUntil(path, () => false, HEAD_BYTES)).slice(0, HEAD_BYTES);
}

async function firstLine(path: string): Promise<string | null> {
  const text = await readUntil(path, (chunk) => chunk.includes('\n'), FIRST_LINE_LIMIT);
  for (const line of text.split('\n')) if (line.trim() !== '') return line;
  return null;
}
