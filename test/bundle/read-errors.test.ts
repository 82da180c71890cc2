import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { readBundle } from '../../src/bundle/read-bundle.js';
import { fixturePath, tempDir } from './dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');

/** A copy of the §9 fixture with one file replaced. */
async function bundleWith(file: string, text: string): Promise<string> {
  const dir = await tempDir();
  await cp(SDK_SPARSE, dir, { recursive: true });
  await writeFile(join(dir, file), text);
  return dir;
}

async function readError(dir: string): Promise<BundleReadError> {
  try {
    await readBundle(dir);
  } catch (error) {
    if (error instanceof BundleReadError) return error;
    throw error;
  }
  throw new Error('expected a BundleReadError');
}

const scoresText = await readFile(join(SDK_SPARSE, 'scores.jsonl'), 'utf8');
const [score1, score2] = scoresText.trimEnd().split('\n') as [string, string];
const trialsText = await readFile(join(SDK_SPARSE, 'trials.jsonl'), 'utf8');
const [trial1, trial2] = trialsText.trimEnd().split('\n') as [string, string];
const taskLine = (await readFile(join(SDK_SPARSE, 'tasks.jsonl'), 'utf8')).trimEnd();

describe('bad bundle lines name file, line and field', () => {
  it('a syntax error gives the line and column', async () => {
    const err = await readError(await bundleWith('scores.jsonl', `${score1}\n{"id": "x", "status": }\n`));
    expect(err.issues[0]).toMatchObject({ code: 'invalid_json', file: 'scores.jsonl', line: 2 });
    expect(err.message).toBe('scores.jsonl:2: invalid JSON at column 23: unexpected character "}"');
  });

  it('a schema error gives the zod field path; blank lines still count', async () => {
    const bad = score2.replace('"status": "completed"', '"status": "done"');
    const err = await readError(await bundleWith('scores.jsonl', `${score1}\n\n${bad}\n`));
    expect(err.issues[0]).toMatchObject({
      code: 'invalid_row',
      file: 'scores.jsonl',
      line: 3,
      path: ['status'],
    });
    expect(err.message).toMatch(/^scores\.jsonl:3: status: /);
  });

  it('nested fields and extra keys are reported with their path', async () => {
    const nested = score1.replace('{"name": "reward", "value": 1.0}', '{"name": 7, "value": 1.0}');
    expect((await readError(await bundleWith('scores.jsonl', `${nested}\n`))).message).toMatch(
      /^scores\.jsonl:1: outputs\[0\]\.name: /,
    );
    const extra = score1.replace('"diagnostics": []', '"diagnostics": [], "reward": 1.0');
    const err = await readError(await bundleWith('scores.jsonl', `${extra}\n`));
    expect(err.issues[0]).toMatchObject({ line: 1, path: [] });
    expect(err.message).toContain('reward');
  });

  it('enforces the trial rules of spec §4', async () => {
    const noOutput = trial2.replace(
      '"output": {"metadata": {"temperature": 0.0}, "output_text": "forty-two", "response": {"raw": [0.0, 2, 1e-05], "score": 1.0}}',
      '"output": null',
    );
    const cases: [string, string][] = [
      [noOutput, 'trials.jsonl:2: output: completed trial requires output'],
      [
        trial2.replace('"prompt_tokens": 120', '"prompt_tokens": -1'),
        'trials.jsonl:2: measurements.prompt_tokens: ',
      ],
      [
        trial2.replace('"prompt_tokens": 120', '"prompt_tokens": 1.5'),
        'trials.jsonl:2: measurements.prompt_tokens: ',
      ],
      [trial2.replace('"cost_usd": null', '"cost_usd": true'), 'trials.jsonl:2: measurements.cost_usd: '],
      [
        trial2.replace('"cost_usd": null', '"cost_usd": null, "reward": 1.0'),
        'trials.jsonl:2: measurements: ',
      ],
      [trial2.replace('"measurements": {', '"measurements": null, "m": {'), 'trials.jsonl:2: '],
      [trial2.replace('"id": "a2"', '"id": ""'), 'trials.jsonl:2: id: trial id must not be empty'],
      [
        trial2.replace('"error": null', '"error": {"type": "  "}'),
        'trials.jsonl:2: error.type: trial error type must not be empty',
      ],
      [
        trial2.replace('"evidence": null', '"evidence": {"descriptors": {"logs": {"kind": "logs"}}}'),
        'trials.jsonl:2: evidence.descriptors.logs: an evidence descriptor needs a ref or data',
      ],
    ];
    for (const [line, expected] of cases) {
      const err = await readError(await bundleWith('trials.jsonl', `${trial1}\n${line}\n`));
      expect(err.message).toContain(expected);
    }
  });

  it('fills measurement defaults and accepts a numeric-string cost', async () => {
    const line = trial2
      .replace('"cost_usd": null, ', '')
      .replace('"runtime_sec": 3.0', '"runtime_sec": 3.0, "cost_usd": " 0.25 "');
    const bundle = await readBundle(await bundleWith('trials.jsonl', `${trial1}\n${line}\n`));
    expect(bundle.trials?.[1]?.measurements.cost_usd).toBe(0.25);
    const bare = '{"id": "t", "task_id": "A", "status": "failed"}';
    const b2 = await readBundle(await bundleWith('trials.jsonl', `${bare}\n`));
    expect(b2.trials?.[0]).toEqual({
      id: 't',
      task_id: 'A',
      status: 'failed',
      output: null,
      evidence: null,
      error: null,
      measurements: {
        prompt_tokens: null,
        completion_tokens: null,
        total_tokens: null,
        cache_creation_tokens: null,
        cache_read_tokens: null,
        runtime_sec: null,
        cost_usd: null,
      },
      metadata: {},
    });
  });

  it('checks tasks: unique metric types, views naming declared outputs, required absent = absent', async () => {
    const dup = taskLine.replace('"metrics": [{', '"metrics": [{"type": "harbor_reward", "outputs": []}, {');
    expect((await readError(await bundleWith('tasks.jsonl', `${dup}\n`))).message).toBe(
      "tasks.jsonl:1: metrics: duplicate metric types: ['harbor_reward']",
    );
    const view = taskLine.replace('"output": "format_ok", "weight"', '"output": "style", "weight"');
    expect((await readError(await bundleWith('tasks.jsonl', `${view}\n`))).message).toContain(
      'tasks.jsonl:1: views.format_quality.signals[0].output: ',
    );
    const noRequired = taskLine.replace(/, "required": (true|false)/g, '');
    const bundle = await readBundle(await bundleWith('tasks.jsonl', `${noRequired}\n`));
    expect(bundle.tasks?.[0]?.metrics[0]?.outputs.map((o) => 'required' in o)).toEqual([false, false]);
  });

  it('a cut-off last line is its own error code', async () => {
    const err = await readError(await bundleWith('scores.jsonl', `${score1}\n${score2.slice(0, 40)}`));
    expect(err.issues[0]).toMatchObject({ code: 'truncated_line', file: 'scores.jsonl', line: 2 });
  });

  it('validates summary.json, metadata.json and run.json too', async () => {
    const summary = (await readFile(join(SDK_SPARSE, 'summary.json'), 'utf8')).replace(
      '"error_count": 0',
      '"error_count": 3',
    );
    expect((await readError(await bundleWith('summary.json', summary))).message).toContain(
      'summary.json: error_count: ',
    );
    expect((await readError(await bundleWith('metadata.json', '{"labels": {"a": 1}}'))).message).toContain(
      'metadata.json: labels.a: ',
    );
    expect((await readError(await bundleWith('run.json', '{\n  "run_id": 1\n}\n'))).message).toContain(
      'run.json: run_id: ',
    );
    expect((await readError(await bundleWith('run.json', '{\n  "run_id": "x",\n}\n'))).message).toBe(
      'run.json:3: invalid JSON at column 1: expected a property name in double quotes',
    );
  });
});

describe('evidence refs never escape the bundle', () => {
  const withRef = (ref: string): string =>
    trial1.replace('"ref": "evidence/a1/atif.json"', `"ref": ${JSON.stringify(ref)}`);

  it('refuses a relative ref that climbs out', async () => {
    const err = await readError(await bundleWith('trials.jsonl', `${withRef('../../../etc/passwd')}\n`));
    expect(err.issues[0]).toMatchObject({
      code: 'ref_escape',
      line: 1,
      path: ['evidence', 'descriptors', 'trace', 'ref'],
    });
    expect(err.message).toContain(
      'trials.jsonl:1: evidence.descriptors.trace.ref: evidence ref "../../../etc/passwd" escapes',
    );
  });

  it('refuses a stale absolute ref whose evidence/ tail climbs out', async () => {
    const err = await readError(
      await bundleWith('trials.jsonl', `${withRef('/gone/run/evidence/../../../etc/passwd')}\n`),
    );
    expect(err.issues[0]?.code).toBe('ref_escape');
  });

  it('refuses a ref through a symlink that points outside', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'x');
    const dir = await bundleWith('trials.jsonl', `${withRef('evidence/link/secret.txt')}\n`);
    await symlink(outside, join(dir, 'evidence', 'link'));
    expect((await readError(dir)).issues[0]?.code).toBe('ref_escape');
  });

  it('rebuilds a stale absolute ref from its evidence/ tail inside the bundle; keeps other refs', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'x.json'), '{}');
    const lines = [
      withRef('/old/machine/run-7/evidence/a1/atif.json'),
      withRef(join(outside, 'x.json')),
      withRef('/old/machine/no-such/trace.json'),
      withRef('s3://bucket/trace.json'),
      withRef('file://' + join(outside, 'x.json')),
    ];
    const dir = await bundleWith('trials.jsonl', lines.join('\n') + '\n');
    const refs = (await readBundle(dir)).trials?.map((t) => t.evidence?.descriptors['trace']?.ref);
    expect(refs).toEqual([
      join(dir, 'evidence/a1/atif.json'),
      join(outside, 'x.json'),
      '/old/machine/no-such/trace.json',
      's3://bucket/trace.json',
      'file://' + join(outside, 'x.json'),
    ]);
  });

  it('resolves a relative ref into a missing file inside the bundle without refusing it', async () => {
    const dir = await bundleWith('trials.jsonl', `${withRef('evidence/zz/none.json')}\n`);
    await mkdir(join(dir, 'evidence', 'zz'), { recursive: true });
    expect((await readBundle(dir)).trials?.[0]?.evidence?.descriptors['trace']?.ref).toBe(
      join(dir, 'evidence/zz/none.json'),
    );
  });
});
