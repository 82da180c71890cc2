import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { createTrialPlanner } from '../../src/pipeline/create-trial-planner.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';
import type { Sink } from '../../src/sinks/sink.js';
import { fromOtlpFiles } from '../../src/sources/from-otlp-files.js';
import { liveEngineConfig } from './live-engine-config.js';
import { startEngineServer } from './start-engine-server.js';

const RUN = 'agent-eval-20260101000000-0000cafe';
const HAND = join(import.meta.dirname, '..', 'fixtures', 'otlp', 'agentevals-otlp', 'hand');

interface OtlpJsonDoc {
  resourceSpans?: { scopeSpans: { spans: { traceId: string }[] }[] }[];
  resourceLogs?: unknown[];
}

/** The same document cut into one document per trace (its log records go with the first). */
function perTrace(doc: OtlpJsonDoc): OtlpJsonDoc[] {
  const traces = new Map<string, OtlpJsonDoc>();
  for (const rs of doc.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        let part = traces.get(span.traceId);
        if (part === undefined) {
          part = { resourceSpans: [] };
          traces.set(span.traceId, part);
        }
        part.resourceSpans!.push({ ...rs, scopeSpans: [{ ...ss, spans: [span] }] });
      }
    }
  }
  const parts = [...traces.values()];
  if (doc.resourceLogs !== undefined && parts.length > 0) parts[0]!.resourceLogs = doc.resourceLogs;
  return parts;
}

/**
 * What a trial came to, for comparing a live run with a file run: the trial as the SDK sees it and
 * its scores, without what differs by nature (where it was read from, the evidence a live run does
 * not keep, score ids, the order trials were scored in, the live completion note).
 */
function outcome(s: ScoredTrial): unknown {
  const {
    evidence: _evidence,
    metadata,
    ...trial
  } = JSON.parse(JSON.stringify(s.item.trial)) as {
    evidence: unknown;
    metadata: Record<string, unknown>;
  };
  const { source_file: _file, ...kept } = metadata;
  return {
    trial: { ...trial, metadata: kept },
    task: s.task.id,
    scores: s.scores.map(({ id: _score, metadata, ...score }) => {
      // the row index counts trials in the order they were scored, which a stream does not fix
      const { row_index: _row, trial_metadata: trialMetadata, ...rest } = metadata as Record<string, unknown>;
      const { source_file: _source, ...trialKept } = trialMetadata as Record<string, unknown>;
      return {
        ...score,
        metadata: { ...rest, trial_metadata: trialKept },
        diagnostics: score.diagnostics.filter((d) => d.source !== 'evalstream.serve'),
      };
    }),
  };
}

function byTrialId(trials: Iterable<ScoredTrial>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of trials) out[s.item.trial.id] = outcome(s);
  return out;
}

/** `evalstream score`'s road over the documents written to one OTLP/JSON lines file. */
async function scoreFile(docs: OtlpJsonDoc[]): Promise<ScoredTrial[]> {
  const dir = await mkdtemp(join(tmpdir(), 'evalstream-parity-'));
  const file = join(dir, 'traces.jsonl');
  await writeFile(file, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const collected: ScoredTrial[] = [];
  const sink: Sink<ScoredTrial> = {
    write: async (s) => void collected.push(s),
    flush: async () => {},
    shutdown: async () => {},
  };
  const result = await runPipeline(
    buildPipeline({ source: fromOtlpFiles([file]), sinks: [sink], runId: RUN }),
  );
  if (result.error !== null) throw result.error;
  return collected;
}

const open: { http: OtlpHttpServer; engine: LiveEngine }[] = [];
afterEach(async () => {
  for (const { http, engine } of open.splice(0)) {
    await http.shutdown();
    await engine.shutdown();
  }
});

/** `serve`'s road: each document POSTed as OTLP/JSON to /v1/traces, in order; the run is then ended. */
async function serveDocs(docs: OtlpJsonDoc[]): Promise<ScoredTrial[]> {
  const engine = new LiveEngine(
    liveEngineConfig({
      runId: RUN,
      completion: { settleMs: 0, idleTimeoutMs: 60_000, endMarkerAttribute: null },
    }),
    createTrialPlanner({ config: parseConfig({}, 'defaults') }),
    [],
  );
  const { http, url } = await startEngineServer(engine);
  open.push({ http, engine });
  for (const doc of docs) {
    const res = await fetch(`${url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(doc),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
  }
  await engine.shutdown();
  return engine.finalTrials();
}

describe('serve and score on the same traces', () => {
  it('give the same trials and scores: log records attach live as from files, a trial split over traces and requests is one trial', async () => {
    const read = async (name: string): Promise<OtlpJsonDoc> =>
      JSON.parse(await readFile(join(HAND, name), 'utf8')) as OtlpJsonDoc;
    const withLogs = await read('openai_v2_logs_span_id.json');
    const logsNoSpanId = await read('openai_v2_logs_no_span_id_single.json');
    // one conversation in three traces, each sent in a request of its own
    const split = perTrace(await read('three_trace_conversation.json'));
    expect(split).toHaveLength(3);
    expect(withLogs.resourceLogs?.length).toBeGreaterThan(0);
    const docs = [withLogs, ...split, logsNoSpanId];

    const fromFile = await scoreFile(docs);
    const live = await serveDocs(docs);
    expect(fromFile.map((s) => s.item.trial.id)).toContain('conv-ada-1');
    expect(live).toHaveLength(fromFile.length);
    expect(byTrialId(live)).toEqual(byTrialId(fromFile));

    // the log records matter to what is scored: without them both roads give something else
    const noLogs = docs.map(({ resourceLogs: _logs, ...doc }) => doc);
    expect(byTrialId(await serveDocs(noLogs))).toEqual(byTrialId(await scoreFile(noLogs)));
    expect(byTrialId(await serveDocs(noLogs))).not.toEqual(byTrialId(live));
  });
});
