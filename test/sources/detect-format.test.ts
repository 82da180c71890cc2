import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/sources/detect-format.js';

const here = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url));
const otlpSample = here('../fixtures/otlp/samples/opentelemetry-proto__examples_trace.json');
const tempoSample = here('../fixtures/otlp/samples/agentevals__kagent_tempo_export_with_batches.json');
const atifSample = here('../fixtures/atif/nemo-agent-toolkit__exmp02_atif.json');
const gymSample = here('../fixtures/gym/rollouts.jsonl');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'detect-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('detectFormat', () => {
  it('directories: bundle (run.json), Harbor job, Harbor trial dir, or nothing', async () => {
    expect(await detectFormat(here('../../examples/sparse-run'))).toBe('bundle');
    expect(await detectFormat(here('../fixtures/harbor/job-2026-01-05'))).toBe('harbor');
    expect(await detectFormat(here('../fixtures/harbor/job-2026-01-05/hello-world__Ab3dE9f'))).toBe('harbor');
    expect(await detectFormat(here('../fixtures/atif'))).toBeNull();
  });

  it('files by content: ATIF schema_version, OTLP resourceSpans / Tempo batches, Gym _ng_ keys', async () => {
    expect(await detectFormat(atifSample)).toBe('atif');
    expect(await detectFormat(otlpSample)).toBe('otlp');
    expect(await detectFormat(tempoSample)).toBe('otlp');
    expect(await detectFormat(gymSample)).toBe('gym');
  });

  it('files by name: .atif.json, .pb, .binpb (content not read)', async () => {
    const atif = join(dir, 'x.atif.json');
    writeFileSync(atif, '{}');
    const pb = join(dir, 'dump.binpb');
    writeFileSync(pb, Buffer.from([0, 0, 0, 0]));
    expect(await detectFormat(atif)).toBe('atif');
    expect(await detectFormat(pb)).toBe('otlp');
    expect(await detectFormat(join(dir, 'dump.binpb'))).toBe('otlp');
  });

  it('looks through gzip and reads JSON lines by their first row', async () => {
    const gz = join(dir, 'rollouts.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(gymSample)));
    expect(await detectFormat(gz)).toBe('gym');
    const otlpLines = join(dir, 'spans.jsonl');
    const line = JSON.stringify(JSON.parse(readFileSync(otlpSample, 'utf8')));
    writeFileSync(otlpLines, `${line}\n${line}\n`);
    expect(await detectFormat(otlpLines)).toBe('otlp');
    const jsonGz = join(dir, 'trace.json.gz');
    writeFileSync(jsonGz, gzipSync(readFileSync(otlpSample)));
    expect(await detectFormat(jsonGz)).toBe('otlp');
  });

  it('the earliest key wins (an ATIF document quoting OTLP text stays ATIF)', async () => {
    const f = join(dir, 'quoted.json');
    writeFileSync(
      f,
      JSON.stringify({ schema_version: 'ATIF-v1.7', steps: [{ message: '{"resourceSpans": []}' }] }),
    );
    expect(await detectFormat(f)).toBe('atif');
  });

  it('unknown content gives null', async () => {
    const f = join(dir, 'notes.json');
    writeFileSync(f, '{"hello": "world"}');
    expect(await detectFormat(f)).toBeNull();
    const j = join(dir, 'rows.jsonl');
    writeFileSync(j, '{"a": 1}\n');
    expect(await detectFormat(j)).toBeNull();
    const sub = join(dir, 'copy');
    mkdirSync(sub);
    copyFileSync(atifSample, join(sub, 'a.json'));
    expect(await detectFormat(sub)).toBeNull();
  });
});
