/**
 * `evalstream score` of an OTLP dump with a bad payload in the middle: the payload is a warning
 * naming the file and line, the run goes on and exits 0; a dump cut off mid-frame is still exit 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { framed, protobufRequest, recordTrial, sdkTracer } from '../sources/from-otlp-fixtures.js';
import { runCli } from './run-cli.js';

let root: string;
let lines: string[];
let frames: Buffer[];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-score-bad-payload-'));
  const { tracer, exporter } = sdkTracer();
  lines = [];
  frames = [];
  for (let i = 0; i < 3; i++) {
    recordTrial(tracer, `run:conv-${i}`, `task-${i}`, ['search'], 1_760_000_000 + i);
    lines.push(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
    frames.push(protobufRequest(exporter.getFinishedSpans()));
    exporter.reset();
  }
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const trialIds = (out: string): string[] =>
  readFileSync(join(out, 'trials.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('score: a bad payload in the middle of a dump', () => {
  it('is a warning naming file and line; every other trial is scored and the run succeeds', async () => {
    const dump = join(root, 'dump.jsonl');
    writeFileSync(dump, [lines[0], '{"resourceSpans": [', lines[1], lines[2]].join('\n') + '\n');
    const out = join(root, 'out');
    const r = await runCli(['score', dump, '--out', out, '--no-report', '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${dump}: line 2: `);
    expect(r.stderr).toContain('; skipped');
    expect(trialIds(out)).toEqual(['run:conv-0', 'run:conv-1', 'run:conv-2']);
  });

  it('a dump cut off inside its last frame still ends the run as incomplete (exit 1)', async () => {
    const dump = join(root, 'cut.binpb');
    const bytes = framed(frames);
    writeFileSync(dump, bytes.subarray(0, bytes.length - 10));
    const out = join(root, 'cut-out');
    const r = await runCli(['score', dump, '--out', out, '--no-report', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dump}: byte `);
    expect(r.stderr).toContain('truncated frame');
    expect(trialIds(out)).toEqual(['run:conv-0', 'run:conv-1']);
  });
});
