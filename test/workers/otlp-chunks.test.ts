/**
 * OTLP dumps scored on worker threads in chunks of payloads: traces that interleave across chunk
 * boundaries, trials made of several traces, conversations that come back after the grouping window
 * (split trials `#2`, `#3`) and log records all come out as one pass groups them, byte for byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { writeToSinks } from '../../src/pipeline/write-to-sinks.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';
import { openInputs } from '../../src/sources/open-inputs.js';
import { seededRandom } from '../../src/stats/seeded-random.js';
import { scoreInWorkers } from '../../src/workers/score-in-workers.js';

const FILES = ['summary.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl'];
const clock = () => new Date('2026-01-01T00:00:00Z');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-otlp-chunks-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

interface OpenTrace {
  traceId: string;
  conv: string;
  left: number;
  root: string;
  started: boolean;
}

/**
 * A JSON-lines dump of `requests` requests: stretches of 600 where each request holds one whole
 * trace (some conversations get a second trace in the next request: one trial of two traces)
 * alternate with stretches of 100 where 2–4 traces interleave over up to 10 requests; some
 * conversations come back hundreds of requests later (a split trial); some requests carry log
 * records of their traces.
 */
function writeDump(file: string, requests: number, seed: number): void {
  const r = seededRandom(seed);
  const lines: string[] = [];
  let traces = 0;
  let spans = 0;
  let convs = 0;
  const open: OpenTrace[] = [];
  const recentConvs: string[] = [];
  const start = (conv: string, left: number): OpenTrace => {
    traces += 1;
    const t = { traceId: hex(traces, 32), conv, left, root: hex((spans += 1), 16), started: false };
    return t;
  };
  const span = (t: OpenTrace, first: boolean) => {
    const id = first ? t.root : hex((spans += 1), 16);
    const chat = r() < 0.6;
    return {
      traceId: t.traceId,
      spanId: id,
      ...(first ? {} : { parentSpanId: t.root }),
      name: first ? 'invoke_agent' : chat ? 'chat' : 'execute_tool search',
      kind: 1,
      startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(spans) * 1000n),
      endTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(spans) * 1000n + 500n),
      attributes: first
        ? [
            str('gen_ai.operation.name', 'invoke_agent'),
            str('gen_ai.conversation.id', t.conv),
            str('nemo.test_case.name', `task-${t.conv.length % 7}-${t.conv.slice(-1)}`),
          ]
        : chat
          ? [
              str('gen_ai.operation.name', 'chat'),
              { key: 'gen_ai.usage.input_tokens', value: { intValue: String(10 + (spans % 90)) } },
            ]
          : [str('gen_ai.operation.name', 'execute_tool'), str('gen_ai.tool.name', 'search')],
    };
  };
  for (let i = 0; i < requests; i += 1) {
    const mixed = i % 700 >= 600;
    const batch: object[] = [];
    const logs: object[] = [];
    const newConv = (): string => {
      const back = recentConvs.length > 40 && r() < 0.08;
      const conv = back ? (recentConvs[Math.floor(r() * 20)] as string) : `conv-${(convs += 1)}`;
      recentConvs.push(conv);
      if (recentConvs.length > 400) recentConvs.shift();
      return conv;
    };
    if (!mixed) {
      const t = start(newConv(), 0);
      batch.push(span(t, true), span(t, false), span(t, false));
      t.started = true;
      if (r() < 0.05) open.push(start(t.conv, 1));
    } else {
      while (open.length < 2 + Math.floor(r() * 3)) open.push(start(newConv(), 3 + Math.floor(r() * 8)));
    }
    for (const t of [...open]) {
      if (r() < 0.5 && mixed) continue;
      batch.push(span(t, !t.started));
      t.started = true;
      t.left -= 1;
      if (r() < 0.1)
        logs.push({
          traceId: t.traceId,
          spanId: t.root,
          body: { stringValue: 'tool said hello' },
          timeUnixNano: '1700000000000000000',
        });
      if (t.left <= 0) open.splice(open.indexOf(t), 1);
    }
    if (batch.length === 0) continue;
    const request: Record<string, unknown> = {
      resourceSpans: [
        {
          resource: { attributes: [str('service.name', 'agent')] },
          scopeSpans: [{ scope: { name: 'bench' }, spans: batch }],
        },
      ],
    };
    if (logs.length > 0) {
      request['resourceLogs'] = [
        { resource: { attributes: [] }, scopeLogs: [{ scope: { name: 'bench' }, logRecords: logs }] },
      ];
    }
    lines.push(JSON.stringify(request));
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

async function onePass(inputs: string[], out: string): Promise<void> {
  const { scored$ } = buildPipeline({
    source: openInputs(inputs),
    sinks: [toRunBundle(out, { runId: 'R1', clock })],
    runId: 'R1',
  });
  await lastValueFrom(scored$, { defaultValue: null });
}

async function inWorkers(inputs: string[], out: string, workers: number): Promise<void> {
  const config = parseConfig({}, '(defaults)');
  const scored = scoreInWorkers({
    inputs,
    format: 'auto',
    workers,
    otlpChunkBytes: 1,
    configFile: '(defaults)',
    concurrency: null,
    runId: 'R1',
    report: false,
    plan: createTrialPlanner({ config }),
  });
  await lastValueFrom(scored.pipe(writeToSinks([toRunBundle(out, { runId: 'R1', clock })])), {
    defaultValue: null,
  });
}

describe('scoreInWorkers on OTLP dumps', () => {
  it('groups traces that cross chunk boundaries, split trials and log records as one pass', async () => {
    const first = join(root, 'a.jsonl');
    const second = join(root, 'b.jsonl');
    writeDump(first, 2600, 7);
    writeDump(second, 900, 11);
    const inputs = [first, second];
    await onePass(inputs, join(root, 'one'));
    const trials = readFileSync(join(root, 'one', 'trials.jsonl'), 'utf8');
    // the dump holds what the chunking must get right
    expect(trials).toMatch(/"id": "conv-\d+#2"/);
    expect(trials.split('\n').length).toBeGreaterThan(1500);
    for (const workers of [2, 3]) {
      const out = join(root, `w${workers}`);
      await inWorkers(inputs, out, workers);
      for (const file of FILES) {
        expect(readFileSync(join(out, file), 'utf8'), `${file} with ${workers} workers`).toBe(
          readFileSync(join(root, 'one', file), 'utf8'),
        );
      }
    }
  }, 300_000);
});
