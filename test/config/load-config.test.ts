import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { findConfigFile, loadConfig } from '../../src/config/load-config.js';

let dir: string;
const SRC = resolve(import.meta.dirname, '../../src');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalstream-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('loads a TS config that imports a custom metric module', async () => {
    await writeFile(
      join(dir, 'my-metric.ts'),
      `import { continuousScore } from '${SRC}/metrics/output-specs.js';
import type { Metric } from '${SRC}/model/metric.js';
export const lengthMetric: Metric = {
  type: 'answer_length',
  outputSpec: () => [continuousScore('chars')],
  computeScores: async (input) => ({ outputs: [{ name: 'chars', value: (input.candidate.output_text ?? '').length }] }),
};
`,
    );
    const file = join(dir, 'evalstream.config.ts');
    await writeFile(
      file,
      `import { defineConfig } from '${SRC}/config/evalstream-config.js';
import { lengthMetric } from './my-metric.js';
export default defineConfig({ metrics: { default: ['exact_match', lengthMetric] }, scoring: { concurrency: 2 } });
`,
    );
    const config = await loadConfig(file);
    expect(config.metrics.default?.map((m) => m.type)).toEqual(['exact_match', 'answer_length']);
    expect(config.scoring.concurrency).toBe(2);
    expect(await findConfigFile(dir)).toBe(file);
  });

  it('loads JSON and JS (named `config` export) configs', async () => {
    const json = join(dir, 'c.json');
    await writeFile(json, JSON.stringify({ labels: { a: 'b' }, metrics: { default: ['usage'] } }));
    expect((await loadConfig(json)).labels).toEqual({ a: 'b' });
    const js = join(dir, 'c.mjs');
    await writeFile(js, `export const config = { runId: 'r-js' };\n`);
    expect((await loadConfig(js)).runId).toBe('r-js');
  });

  it('names the file and the path of an invalid field', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ metrics: { default: [{ name: 'regex_match', options: { flags: 'g' } }] } }),
    );
    await expect(loadConfig(file)).rejects.toThrow(
      `${file}: metrics.default[0].options.flags: flags may only use i, m, s, u`,
    );
  });

  it('reports unreadable, unparsable and unsupported files as ConfigError', async () => {
    await expect(loadConfig(join(dir, 'missing.json'))).rejects.toBeInstanceOf(ConfigError);
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ nope');
    await expect(loadConfig(broken)).rejects.toThrow(/broken\.json: \(root\): invalid JSON/);
    await expect(loadConfig(join(dir, 'c.yaml'))).rejects.toThrow(/unsupported config type '\.yaml'/);
    const throwing = join(dir, 'throws.mjs');
    await writeFile(throwing, `throw new Error('boom at load');\n`);
    await expect(loadConfig(throwing)).rejects.toThrow(/cannot load: boom at load/);
    const empty = join(dir, 'empty.mjs');
    await writeFile(empty, `export const other = 1;\n`);
    await expect(loadConfig(empty)).rejects.toThrow(/exports no config/);
  });

  it('findConfigFile returns null when there is none', async () => {
    expect(await findConfigFile(join(dir, 'nowhere'))).toBeNull();
  });
});
