import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { collectTrialErrors } from '../../src/bundle/collect-trial-errors.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import { fixturePath, tempDir } from './dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');
const trialsText = await readFile(join(SDK_SPARSE, 'trials.jsonl'), 'utf8');
const scoresText = await readFile(join(SDK_SPARSE, 'scores.jsonl'), 'utf8');
const trial1 = trialsText.split('\n')[0] as string;

async function bundleWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  await cp(SDK_SPARSE, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function summarizeError(dir: string): Promise<BundleReadError> {
  try {
    await summarizeBundle(dir, { outDir: join(await tempDir(), 'out') });
  } catch (error) {
    if (error instanceof BundleReadError) return error;
    throw error;
  }
  throw new Error('expected a BundleReadError');
}

const failedTrial = (id: string, type: string): string =>
  trial1
    .replace(
      '"error": null',
      `"error": {"message": "boom", "occurred_at": null, "traceback": null, "type": "${type}"}`,
    )
    .replace('"id": "a1"', `"id": "${id}"`)
    .replace('"status": "completed"', '"status": "failed"')
    .replace(/"output": \{"metadata": \{\}, [^}]*\}/, '"output": null');

describe('trial error rollup', () => {
  it('keeps the failed trials in file order', async () => {
    const extra = [
      failedTrial('x1', 'Timeout'),
      failedTrial('x2', 'RuntimeError'),
      failedTrial('x3', 'Timeout'),
    ];
    const dir = await bundleWith({ 'trials.jsonl': trialsText + extra.join('\n') + '\n' });
    const here = await collectTrialErrors(dir);
    expect(here.issues).toBeNull();
    const tail = here.ids.length - 3;
    expect(here.ids.slice(tail)).toEqual(['x1', 'x2', 'x3']);
    expect(here.types.slice(tail)).toEqual(['Timeout', 'RuntimeError', 'Timeout']);

    const a = await summarizeBundle(dir, { outDir: join(await tempDir(), 'out') });
    expect(a.summary.error_trial_ids['Timeout']).toEqual(['x1', 'x3']);
  });

  it('a bad trial line names file, line and field; a bad score line wins over it', async () => {
    const badTrial = trial1.replace('"status": "completed"', '"status": "done"');
    const dir = await bundleWith({ 'trials.jsonl': `${trial1}\n\n${badTrial}\n` });
    const here = await summarizeError(dir);
    expect(here.issues[0]).toMatchObject({
      code: 'invalid_row',
      file: 'trials.jsonl',
      line: 3,
      path: ['status'],
    });

    const badScore = (scoresText.split('\n')[0] as string).replace('"status": "completed"', '"status": "x"');
    const both = await bundleWith({ 'trials.jsonl': `${badTrial}\n`, 'scores.jsonl': `${badScore}\n` });
    const err = await summarizeError(both);
    expect(err.issues[0]).toMatchObject({ file: 'scores.jsonl', line: 1, path: ['status'] });
  });

  it('a cut-off last trial line is a warning, reported after the score warnings', async () => {
    const dir = await bundleWith({
      'trials.jsonl': `${trial1}\n{"error": nu`,
      'scores.jsonl': `${scoresText}{"diagnostics": [`,
    });
    const result = await summarizeBundle(dir, { outDir: join(await tempDir(), 'out') });
    expect(result.truncated).toBe(true);
    expect(result.warnings.map((w) => [w.code, w.file])).toEqual([
      ['truncated_line', 'scores.jsonl'],
      ['truncated_line', 'trials.jsonl'],
    ]);
  });
});
