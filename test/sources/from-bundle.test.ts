import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { readScoreRows } from '../../src/bundle/read-score-rows.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { TaskSpec } from '../../src/model/task.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';
import { fromBundle } from '../../src/sources/from-bundle.js';
import { dirTexts, fixturePath, tempDir } from '../bundle/dir-files.js';

const EXAMPLE = new URL('../../examples/sparse-run', import.meta.url).pathname;

describe('fromBundle', () => {
  it('emits every trial in file order with its task spec, evidence and origin line', async () => {
    const items = await lastValueFrom(fromBundle(EXAMPLE).pipe(toArray()));
    expect(items.map((i) => i.trial.id)).toEqual(['a1', 'a2', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3']);
    expect(items.map((i) => i.task?.id)).toEqual(['A', 'A', 'B', 'B', 'B', 'C', 'C', 'C']);
    expect(items.map((i) => i.origin.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(items[0]?.origin.file).toBe(join(EXAMPLE, 'trials.jsonl'));
    expect(items[3]?.evidence).toBeNull();
    const evidence = items[0]?.evidence;
    expect(evidence?.get('trace')?.ref).toBe(join(EXAMPLE, 'evidence/a1/atif.json'));
    const trace = await evidence?.trace('trace', 'atif');
    expect(trace?.stepCount()).toBe(3);
    expect(trace?.finalText()).toBe('42');
  });

  it('is lazy and stops when the consumer unsubscribes', async () => {
    const source = fromBundle(join(await tempDir(), 'does-not-exist'));
    // nothing happens until subscription
    await expect(firstValueFrom(source)).rejects.toBeInstanceOf(BundleReadError);
    const first = await firstValueFrom(fromBundle(EXAMPLE).pipe(take(1)));
    expect(first.trial.id).toBe('a1');
  });

  it('errors with file and line on a bad trial', async () => {
    const dir = await tempDir();
    await cp(EXAMPLE, dir, { recursive: true });
    const lines = (await readFile(join(dir, 'trials.jsonl'), 'utf8')).split('\n');
    lines[2] = (lines[2] as string).replace('"status": "completed"', '"status": "ok"');
    await writeFile(join(dir, 'trials.jsonl'), lines.join('\n'));
    const seen: string[] = [];
    const error = await new Promise<unknown>((done) =>
      fromBundle(dir).subscribe({
        next: (i) => seen.push(i.trial.id),
        error: done,
        complete: () => done(null),
      }),
    );
    expect(seen).toEqual(['a1', 'a2']);
    expect((error as Error).message).toMatch(/^trials\.jsonl:3: status: /);
  });

  it('feeds toRunBundle: a bundle read and written back through the pipeline is byte-identical', async () => {
    for (const source of [EXAMPLE, fixturePath('sdk-sparse')]) {
      const scores = new Map<string, ScoreRecord[]>();
      for await (const batch of readScoreRows(source)) {
        for (const row of batch.rows) scores.set(row.trial_id, [...(scores.get(row.trial_id) ?? []), row]);
      }
      const out = join(await tempDir(), 'copy');
      const sink = toRunBundle(out, { evidenceRoots: [source] });
      const items = await lastValueFrom(fromBundle(source).pipe(toArray()));
      for (const item of items) {
        await sink.write({ item, scores: scores.get(item.trial.id) ?? [], task: item.task as TaskSpec });
      }
      await sink.shutdown();
      const written = await dirTexts(out);
      const expected = await dirTexts(source);
      delete written['metadata.json'];
      delete expected['metadata.json'];
      // stats.json is evalstream's addition (the SDK-written source has none)
      expect(written['stats.json']).toMatch(/^\{\n {2}"stats_version": 1,/);
      if (expected['stats.json'] === undefined) delete written['stats.json'];
      expect(written).toEqual(expected);
    }
  });
});
