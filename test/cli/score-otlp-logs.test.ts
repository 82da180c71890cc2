/**
 * `evalstream score` of OTLP dumps holding log exports next to trace exports (as the Collector's
 * file exporter writes them): log records attach to the trial of their trace id, before or after its
 * spans, and a metric reads another evaluator's `gen_ai.evaluation.result` through `logRecords()`;
 * records that attach to no trial are a warning with their count.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
} from '@opentelemetry/otlp-transformer';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluationResultLogs } from '../evidence/otlp/record-sdk-logs.js';
import { framed, protobufRequest, recordTrial, sdkTracer } from '../sources/from-otlp-fixtures.js';
import { runCli } from './run-cli.js';

const SPEC = (name: string): string =>
  `{ name: '${name}', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }`;

/** A metric that reports the external evaluator's helpfulness score and the trial's log records. */
const CONFIG = `export default {
  metrics: { default: [{
    type: 'external_eval',
    outputSpec: () => [${SPEC('helpfulness')}, ${SPEC('log_records')}],
    computeScores: async (input) => {
      const records = (await input.candidate.evidence.trace()).logRecords();
      const result = records.find(
        (r) => r.eventName === 'gen_ai.evaluation.result' &&
          r.attributes.getString('gen_ai.evaluation.name') === 'helpfulness',
      );
      const value = result?.attributes.get('gen_ai.evaluation.score.value');
      return { outputs: [
        { name: 'helpfulness', value: value?.type === 'double' ? value.value : -1 },
        { name: 'log_records', value: records.length },
      ] };
    },
  }] },
};
`;

let root: string;
let config: string;
/** Spans of three trials, in order. */
const trials: ReadableSpan[][] = [];
/** Results for trial 0 (sent before its spans), for trial 1 (after), and two that attach nowhere. */
let before: ReadableLogRecord[];
let after: ReadableLogRecord[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-score-otlp-logs-'));
  config = join(root, 'external.config.mjs');
  writeFileSync(config, CONFIG);
  const { tracer, exporter } = sdkTracer();
  for (let i = 0; i < 3; i++) {
    recordTrial(tracer, `run:conv-${i}`, `task-${i}`, ['search'], 1_760_000_000 + i);
    trials.push(exporter.getFinishedSpans());
    exporter.reset();
  }
  const traceOf = (i: number): string => trials[i]![0]!.spanContext().traceId;
  before = evaluationResultLogs([
    { traceId: traceOf(0), name: 'helpfulness', value: 0.25 },
    { traceId: 'ffeeddccbbaa99887766554433221100', name: 'helpfulness', value: 1 },
  ]);
  after = evaluationResultLogs([
    { traceId: traceOf(1), name: 'helpfulness', value: 0.5 },
    { traceId: null, name: 'helpfulness', value: 1 },
  ]);
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const jsonLine = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** `external_eval` outputs per trial id. */
function scoresByTrial(out: string): Record<string, Record<string, unknown>> {
  const rows = readFileSync(join(out, 'scores.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { trial_id: string; outputs: { name: string; value: unknown }[] });
  return Object.fromEntries(
    rows.map((r) => [r.trial_id, Object.fromEntries(r.outputs.map((o) => [o.name, o.value]))]),
  );
}

const EXPECTED = {
  'run:conv-0': { helpfulness: 0.25, log_records: 1 },
  'run:conv-1': { helpfulness: 0.5, log_records: 1 },
  'run:conv-2': { helpfulness: -1, log_records: 0 },
};
const WARNING =
  '2 log record(s) attached to no trial (1 without a valid trace id, 1 whose trace had no spans in the input)';

/**
 * Scores `input` into `out`: every trial as {@link EXPECTED}, the two others a warning naming `file`
 * and a row of no trial in the bundle's `diagnostics.jsonl`.
 */
async function expectScored(input: string, out: string, file: string): Promise<void> {
  const r = await runCli(['score', input, '--config', config, '--out', out, '--no-report', '--no-progress']);
  expect(r.code, r.stderr).toBe(0);
  expect(scoresByTrial(out)).toEqual(EXPECTED);
  expect(r.stderr).toContain(`warning: ${file}: ${WARNING}`);
  const rows = readFileSync(join(out, 'diagnostics.jsonl'), 'utf8').trim().split('\n');
  expect(rows.map((l) => JSON.parse(l) as unknown)).toEqual([
    {
      trial_id: null,
      task_id: null,
      code: 'unattached_log_records',
      message: WARNING,
      file,
      line: null,
      offset: null,
      field: 'logRecords',
    },
  ]);
}

describe('score: OTLP log records next to the spans', () => {
  it('JSON lines: records before and after their spans attach to the trial; the others are counted', async () => {
    const dump = join(root, 'dump.jsonl');
    const lines = [
      jsonLine(JsonLogsSerializer.serializeRequest(before)),
      ...trials.map((spans) => jsonLine(JsonTraceSerializer.serializeRequest(spans))),
      jsonLine(JsonLogsSerializer.serializeRequest(after)),
    ];
    writeFileSync(dump, lines.join('\n') + '\n');
    await expectScored(dump, join(root, 'jsonl-out'), dump);
  });

  it('protobuf frames: ExportLogsServiceRequest frames among trace frames are told apart', async () => {
    const dump = join(root, 'dump.binpb');
    writeFileSync(
      dump,
      framed([
        Buffer.from(ProtobufLogsSerializer.serializeRequest(before) as Uint8Array),
        ...trials.map(protobufRequest),
        Buffer.from(ProtobufLogsSerializer.serializeRequest(after) as Uint8Array),
      ]),
    );
    await expectScored(dump, join(root, 'pb-out'), dump);
  });

  it('a logs file read before the traces file (a directory, in name order) attaches too', async () => {
    const dir = join(root, 'split');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'logs.jsonl'),
      [before, after].map((r) => jsonLine(JsonLogsSerializer.serializeRequest(r))).join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'traces.jsonl'),
      trials.map((spans) => jsonLine(JsonTraceSerializer.serializeRequest(spans))).join('\n') + '\n',
    );
    await expectScored(dir, join(root, 'split-out'), join(dir, 'logs.jsonl'));
  });
});
