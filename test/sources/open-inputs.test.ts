import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrialItem } from '../../src/model/trial-item.js';
import { InputError } from '../../src/sources/input-error.js';
import { openInputs, type OpenInputsOptions } from '../../src/sources/open-inputs.js';

const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));
const bundle = here('../../examples/sparse-run');
const harbor = here('../fixtures/harbor/job-2026-01-05');
const atif02 = here('../fixtures/atif/nemo-agent-toolkit__exmp02_atif.json');
const atif04 = here('../fixtures/atif/nemo-agent-toolkit__exmp04_atif.json');
const gym = here('../fixtures/gym/rollouts.jsonl');
const otlp = here('../fixtures/otlp/samples/opentelemetry-proto__examples_trace.json');

const ids = async (inputs: string[], options: OpenInputsOptions = {}): Promise<string[]> =>
  (await lastValueFrom(openInputs(inputs, options).pipe(toArray()))).map((i: TrialItem) => i.trial.id);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'open-inputs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openInputs', () => {
  it('reads each input with its source, in input order', async () => {
    expect(await ids([harbor, bundle, gym])).toEqual([
      'fix-bug__Q9rT2wX',
      'hello-world__Ab3dE9f',
      'multi-step__Z7kP4mN',
      'a1',
      'a2',
      'b1',
      'b2',
      'b3',
      'c1',
      'c2',
      'c3',
      'math_agent:0-0',
      'math_agent:0-1',
      'math_agent:1-0',
      'math_agent:1-1',
    ]);
  });

  it('files of one format form one source, placed at the first of them', async () => {
    expect(await ids([atif02, gym, atif04])).toEqual([
      'nemo-agent-toolkit__exmp02_atif',
      'nemo-agent-toolkit__exmp04_atif',
      'math_agent:0-0',
      'math_agent:0-1',
      'math_agent:1-0',
      'math_agent:1-1',
    ]);
  });

  it('OTLP files are grouped into trials (default: by trace id)', async () => {
    // examples/trace.json holds one span of trace 5B8EFFF7...; ids are normalised to lowercase hex
    expect(await ids([otlp])).toEqual(['5b8efff798038103d269b633813fc60c']);
  });

  it('expands plain directories and skips what it cannot recognise', async () => {
    const d = join(dir, 'mixed');
    mkdirSync(join(d, 'sub'), { recursive: true });
    copyFileSync(atif04, join(d, 'sub', 'b.json'));
    copyFileSync(atif02, join(d, 'a.json'));
    writeFileSync(join(d, 'README.txt'), 'notes');
    expect(await ids([d])).toEqual(['a', 'b']);
  });

  it('a forced format overrides detection', async () => {
    const renamed = join(dir, 'rollouts.data');
    copyFileSync(gym, renamed);
    await expect(ids([renamed])).resolves.toHaveLength(4); // sniffed from content
    const f = join(dir, 'trace.txt');
    writeFileSync(
      f,
      '{"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1"}, "steps": [{"step_id": 1, "source": "agent", "message": "hi"}]}',
    );
    expect(await ids([f], { format: 'atif' })).toEqual(['trace.txt']);
  });

  it('an unrecognisable input fails before anything is read', async () => {
    const f = join(dir, 'unknown.json');
    writeFileSync(f, '{"x": 1}');
    const run = lastValueFrom(openInputs([gym, f]).pipe(toArray()));
    await expect(run).rejects.toBeInstanceOf(InputError);
    await expect(run).rejects.toThrow(/unknown\.json: cannot tell the input format; name it with --format/);
    await expect(ids([join(dir, 'missing.json')])).rejects.toThrow(/missing\.json: cannot read input/);
    await expect(ids([atif02], { format: 'harbor' })).rejects.toThrow(/a harbor input is a directory/);
  });
});
