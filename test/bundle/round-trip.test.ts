import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/bundle/read-bundle.js';
import { writeBundle } from '../../src/bundle/write-bundle.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { dirTexts, fixturePath, tempDir } from './dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');
const EXAMPLE = new URL('../../examples/sparse-run', import.meta.url).pathname;

describe('read → write round trip', () => {
  for (const [label, source] of [
    ['an SDK-written bundle (Python json.dumps formatting)', SDK_SPARSE],
    ['an evalstream-written bundle', EXAMPLE],
  ] as const) {
    it(`reproduces ${label} byte for byte in a new directory, evidence included`, async () => {
      const out = join(await tempDir(), 'copy');
      const bundle = await readBundle(source);
      const written = await writeBundle(out, bundle);
      // writeBundle writes the SDK's files; stats.json comes from score, summarize and merge
      const expected = await dirTexts(source);
      delete expected['stats.json'];
      expect(await dirTexts(out)).toEqual(expected);
      expect(written.files).toEqual([
        'metadata.json',
        'tasks.jsonl',
        'trials.jsonl',
        'scores.jsonl',
        'summary.json',
        'run.json',
      ]);
    });

    it(`reproduces ${label} byte for byte in place, and when the summary is recomputed`, async () => {
      const dir = await tempDir();
      await cp(source, dir, { recursive: true });
      const before = await dirTexts(dir);
      await writeBundle(dir, await readBundle(dir));
      expect(await dirTexts(dir)).toEqual(before);
      await writeBundle(dir, await readBundle(dir), { summary: 'recompute' });
      expect(await dirTexts(dir)).toEqual(before);
    });
  }

  it('resolves relative refs on read and stores them bundle-relative again', async () => {
    const bundle = await readBundle(SDK_SPARSE);
    const ref = bundle.trials?.[0]?.evidence?.descriptors['trace']?.ref;
    expect(ref).toBe(join(SDK_SPARSE, 'evidence/a1/atif.json'));
  });

  it('keeps the JSON type of free-form numbers it read (1.0 stays 1.0, 2 stays 2)', async () => {
    const bundle = await readBundle(SDK_SPARSE);
    expect(bundle.trials?.[1]?.output?.response).toEqual({ score: 1, raw: [0, 2, 1e-5] });
    const out = await tempDir();
    await writeBundle(out, bundle);
    const line = (await readFile(join(out, 'trials.jsonl'), 'utf8')).split('\n')[1];
    expect(line).toContain('"response": {"raw": [0.0, 2, 1e-05], "score": 1.0}');
  });

  it('writes NaN outputs as "NaN", infinite ones as null, and in-memory continuous values as floats', async () => {
    const bundle = await readBundle(SDK_SPARSE);
    const base = bundle.scores[0] as ScoreRecord;
    const built: ScoreRecord = {
      ...base,
      outputs: [
        { name: 'reward', value: NaN },
        { name: 'format_ok', value: 1 },
        { name: 'extra', value: Infinity },
      ],
    };
    const out = await tempDir();
    await writeBundle(out, { ...bundle, scores: [built], summary: null });
    const line = (await readFile(join(out, 'scores.jsonl'), 'utf8')).trimEnd();
    expect(line).toContain(
      '"outputs": [{"name": "reward", "value": "NaN"}, {"name": "format_ok", "value": 1.0}, {"name": "extra", "value": null}]',
    );
    // the summary's task value keeps the float type of the continuous output
    const summary = await readFile(join(out, 'summary.json'), 'utf8');
    expect(summary).toMatch(/"trial_id": "a1",\n {10}"value": 1\.0,\n {10}"value_type": "number"/);
  });

  it('keeps an int that an SDK metric returned for a continuous output as an int, in scores and task values', async () => {
    const dir = await tempDir();
    await cp(SDK_SPARSE, dir, { recursive: true });
    const scores = (await readFile(join(dir, 'scores.jsonl'), 'utf8')).replace(
      '"value": 0.0}',
      '"value": 0}',
    );
    await writeFile(join(dir, 'scores.jsonl'), scores);
    const bundle = await readBundle(dir);
    await writeBundle(dir, bundle, { summary: 'recompute' });
    expect(await readFile(join(dir, 'scores.jsonl'), 'utf8')).toBe(scores);
    const summary = await readFile(join(dir, 'summary.json'), 'utf8');
    expect(summary).toMatch(/"trial_id": "a2",\n {10}"value": 0,\n/);
    expect(summary).toMatch(/"trial_id": "a1",\n {10}"value": 1\.0,\n/);
  });

  it('accepts a bare name → descriptor evidence map and writes the wrapped form', async () => {
    const dir = await tempDir();
    await cp(SDK_SPARSE, dir, { recursive: true });
    const trials = (await readFile(join(dir, 'trials.jsonl'), 'utf8')).replace(
      '"evidence": {"descriptors": {"trace": {"data": null, "description": null, "format": "atif", "kind": "trace", "metadata": {}, "ref": "evidence/a1/atif.json"}}, "metadata": {}}',
      '"evidence": {"trace": {"data": {"weight": 2.0}, "kind": "trace", "ref": "evidence/a1/atif.json"}}',
    );
    await writeFile(join(dir, 'trials.jsonl'), trials);
    const bundle = await readBundle(dir);
    expect(bundle.trials?.[0]?.evidence?.metadata).toEqual({});
    await writeBundle(dir, bundle);
    expect(await readFile(join(dir, 'trials.jsonl'), 'utf8')).toContain(
      '"evidence": {"descriptors": {"trace": {"data": {"weight": 2.0}, "description": null, "format": null, "kind": "trace", "metadata": {}, "ref": "evidence/a1/atif.json"}}, "metadata": {}}',
    );
  });

  it('updates output_dir / dashboard_path of an old-style manifest and keeps unknown keys', async () => {
    const dir = await tempDir();
    await cp(SDK_SPARSE, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(
      join(dir, 'run.json'),
      JSON.stringify({
        ...manifest,
        output_dir: '/old/place',
        dashboard_path: '/old/place/report.html',
        note: 'x',
      }),
    );
    const out = join(await tempDir(), 'new');
    await writeBundle(out, await readBundle(dir));
    expect(JSON.parse(await readFile(join(out, 'run.json'), 'utf8'))).toEqual({
      ...manifest,
      output_dir: out,
      dashboard_path: null,
      note: 'x',
    });
  });
});
