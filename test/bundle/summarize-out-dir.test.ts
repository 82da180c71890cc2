import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import { duckdbBundleSummaryEngine } from '../../src/sql-summary/duckdb-bundle-summary-engine.js';
import { dirFiles, fixturePath, tempDir } from './dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');

async function bundleWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  await cp(SDK_SPARSE, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function readError(run: Promise<unknown>): Promise<BundleReadError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof BundleReadError) return error;
    throw error;
  }
  throw new Error('expected a BundleReadError');
}

/** A fresh parent directory with an `out` directory in it that already holds the file `name`. */
async function outDirHolding(name: string): Promise<{ parent: string; out: string }> {
  const parent = await tempDir();
  const out = join(parent, 'out');
  await mkdir(out);
  await writeFile(join(out, name), 'keep me');
  return { parent, out };
}

const engines = [
  ['memory', () => null],
  ['duckdb', () => duckdbBundleSummaryEngine()],
] as const;

describe.each(engines)('summarizeBundle --out (%s engine)', (_name, engine) => {
  it('writes the same files as an in-place summary, and nothing else next to the output', async () => {
    const parent = await tempDir();
    const out = join(parent, 'out');
    const dir = await bundleWith({});
    await summarizeBundle(dir, { outDir: out, summaryEngine: engine() });
    await summarizeBundle(dir, { summaryEngine: engine() });
    expect(await dirFiles(out)).toEqual(await dirFiles(dir));
    expect(await readdir(parent)).toEqual(['out']);
  });

  it('reports a bad tasks.jsonl before a bad output directory, and leaves no copy behind', async () => {
    const { parent, out } = await outDirHolding('unrelated.txt');
    const dir = await bundleWith({ 'tasks.jsonl': '{"id": 1}\n' });
    const error = await readError(summarizeBundle(dir, { outDir: out, summaryEngine: engine() }));
    expect(error.issues[0]?.file).toContain('tasks.jsonl');
    expect(await readdir(parent)).toEqual(['out']);
    expect(await readdir(out)).toEqual(['unrelated.txt']);
  });

  it('reports a bad output directory when the bundle is fine', async () => {
    const { parent, out } = await outDirHolding('unrelated.txt');
    const error = await readError(
      summarizeBundle(await bundleWith({}), { outDir: out, summaryEngine: engine() }),
    );
    expect(error.issues[0]?.code).toBe('invalid_output_dir');
    expect(await readdir(parent)).toEqual(['out']);
  });

  it('discards the copy when a score row is bad', async () => {
    const parent = await tempDir();
    const out = join(parent, 'out');
    const dir = await bundleWith({ 'scores.jsonl': '{"id": "s1"}\n' });
    await readError(summarizeBundle(dir, { outDir: out, summaryEngine: engine() }));
    expect(await readdir(parent)).toEqual([]);
  });
});
