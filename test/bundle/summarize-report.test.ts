import { appendFile, cp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { bundleReportWriter } from '../../src/bundle/bundle-report-writer.js';
import type { ReportWriter } from '../../src/bundle/report-writer.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import { reportWriterFor } from '../../src/report/report-writer-for.js';
import { fixturePath, tempDir } from './dir-files.js';

const BUNDLES = {
  'the example run': new URL('../../examples/sparse-run', import.meta.url).pathname,
  'an SDK-written bundle': fixturePath('sdk-sparse'),
};

async function copyOf(source: string): Promise<string> {
  const dir = join(await tempDir(), 'bundle');
  await cp(source, dir, { recursive: true });
  return dir;
}

/** The default writer, minus the path that reads the finished bundle again. */
const feedOnly: ReportWriter = Object.assign(
  () => Promise.reject(new Error('the report read the bundle again')),
  { fromBundle: bundleReportWriter.fromBundle as NonNullable<ReportWriter['fromBundle']> },
);

describe('summarize with the report', () => {
  it.each(Object.entries(BUNDLES))(
    '%s: the report is fed while the bundle is read once, and equals a report built from the bundle',
    async (_what, source) => {
      const dir = await copyOf(source);
      const result = await summarizeBundle(dir, { reportWriter: feedOnly });
      expect(result.report?.path).toBe(join(dir, 'report.html'));
      const fed = await readFile(join(dir, 'report.html'), 'utf8');
      const rebuilt = join(dir, 'rebuilt.html');
      await reportWriterFor(dir, { outPath: rebuilt });
      expect(fed).toBe(await readFile(rebuilt, 'utf8'));
      expect(result.report?.bytes).toBe(Buffer.byteLength(fed));
    },
  );

  it('writes the report into --out, resolving evidence against the source', async () => {
    const dir = await copyOf(BUNDLES['the example run']);
    const out = join(await tempDir(), 'copy');
    const result = await summarizeBundle(dir, { outDir: out, reportWriter: feedOnly });
    expect(result.report?.path).toBe(join(out, 'report.html'));
    const rebuilt = join(out, 'rebuilt.html');
    await reportWriterFor(out, { outPath: rebuilt });
    expect(await readFile(join(out, 'report.html'), 'utf8')).toBe(await readFile(rebuilt, 'utf8'));
  });

  it('feeds the report from the scores alone when the bundle has no trials.jsonl', async () => {
    const dir = await copyOf(BUNDLES['the example run']);
    await rm(join(dir, 'trials.jsonl'));
    const result = await summarizeBundle(dir, { reportWriter: feedOnly });
    expect(result.report?.path).toBe(join(dir, 'report.html'));
    const rebuilt = join(dir, 'rebuilt.html');
    await reportWriterFor(dir, { outPath: rebuilt });
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toBe(await readFile(rebuilt, 'utf8'));
  });

  it('reports a bad scores line before a bad trials line, as without the report, and writes no report', async () => {
    for (const writer of [feedOnly, null]) {
      const dir = await copyOf(BUNDLES['the example run']);
      await appendFile(join(dir, 'trials.jsonl'), '{"id": 5}\n');
      await appendFile(join(dir, 'scores.jsonl'), '{"id": 5}\n');
      const both = await summarizeBundle(dir, { reportWriter: writer }).catch((e: unknown) => e);
      expect(both).toBeInstanceOf(BundleReadError);
      expect((both as BundleReadError).issues[0]?.file).toBe('scores.jsonl');

      const onlyTrials = await copyOf(BUNDLES['the example run']);
      await appendFile(join(onlyTrials, 'trials.jsonl'), '{"id": 5}\n');
      const trials = await summarizeBundle(onlyTrials, { reportWriter: writer }).catch((e: unknown) => e);
      expect(trials).toBeInstanceOf(BundleReadError);
      expect((trials as BundleReadError).issues[0]?.file).toBe('trials.jsonl');
      expect(existsSync(join(onlyTrials, 'report.html'))).toBe(false);
    }
  });
});
