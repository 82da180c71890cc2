import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BundleIssue, BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { forEachJsonlRow, readJsonlRows } from '../../src/bundle/read-jsonl-rows.js';
import { rowFastChecks } from '../../src/bundle/row-fast-checks.js';
import { rowSchemas } from '../../src/bundle/row-schemas.js';
import { tempDir } from './dir-files.js';

const score = (i: number, value: string): string =>
  `{"diagnostics": [], "id": "s${i}", "metadata": {}, "metric_type": "m", "outputs": [{"name": "r", "value": ${value}}], ` +
  `"run_id": "R", "status": "completed", "task_id": "t", "trial_id": "a${i}"}`;

interface Seen {
  rows: unknown[];
  texts: string[];
  lines: number[];
  warnings: BundleIssue[];
  error: BundleIssue[] | null;
}

async function both(content: string): Promise<{ each: Seen; batches: Seen }> {
  const file = join(await tempDir(), 'scores.jsonl');
  await writeFile(file, content);
  const seen = (): Seen => ({ rows: [], texts: [], lines: [], warnings: [], error: null });
  const each = seen();
  const batches = seen();
  const options = (s: Seen) => ({
    displayName: 'scores.jsonl',
    fastCheck: rowFastChecks.score,
    register: false,
    onTruncatedLine: (issue: BundleIssue) => s.warnings.push(issue),
  });
  try {
    await forEachJsonlRow(file, rowSchemas.score, options(each), (row, text, line) => {
      each.rows.push(row);
      each.texts.push(text);
      each.lines.push(line);
    });
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    each.error = [...error.issues];
  }
  try {
    for await (const batch of readJsonlRows(file, rowSchemas.score, options(batches))) {
      batches.rows.push(...batch.rows);
      batches.texts.push(...(batch.texts as string[]));
      batches.lines.push(...batch.lines);
    }
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    batches.error = [...error.issues];
  }
  return { each, batches };
}

describe('forEachJsonlRow delivers what readJsonlRows does, row by row', () => {
  it('blank lines, CRLF, NaN literals, lines across the 1 MiB read boundary, a cut-off last line', async () => {
    const lines = Array.from({ length: 6000 }, (_, i) => score(i, i % 7 === 0 ? 'NaN' : `${i}.0`));
    const content = lines.join('\n').replace(score(5, '5.0'), `${score(5, '5.0')}\r\n  `) + '\n' + '{"cut';
    const { each, batches } = await both(content);
    expect(each.rows.length).toBe(6000);
    expect(each).toEqual(batches);
    expect(each.warnings.map((w) => [w.code, w.line])).toEqual([['truncated_line', 6002]]);
  });

  it('a bad line rejects after the rows before it, with the same issues', async () => {
    const content =
      [
        score(1, '1'),
        '',
        score(2, '"x"').replace('"status": "completed"', '"status": 3'),
        score(3, '1'),
      ].join('\n') + '\n';
    const { each, batches } = await both(content);
    expect(each.rows.length).toBe(1);
    expect(each.error?.[0]).toMatchObject({
      code: 'invalid_row',
      file: 'scores.jsonl',
      line: 3,
      path: ['status'],
    });
    expect(each).toEqual(batches);
  });
});
