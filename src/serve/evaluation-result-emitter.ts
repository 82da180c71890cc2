import { ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import type { OtlpSpan } from '../evidence/otlp/otlp-types.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { JsonValue } from '../model/json-value.js';
import type { Sink } from '../sinks/sink.js';
import { spansOfTrace } from '../sinks/duckdb/spans-of-trace.js';

type LogRecords = Parameters<typeof ProtobufLogsSerializer.serializeRequest>[0];
type LogRecord = LogRecords[number];

/** Options of {@link EvaluationResultEmitter}. */
export interface EvaluationResultEmitterOptions {
  runId: string;
  /** Longest time (ms) a record waits before its batch is sent (default 1000). */
  flushMs?: number;
  /** Told when a send fails, as it fails (the error later `write`s and `flush` reject with). */
  onFailure?: (error: Error) => void;
}

/**
 * `serve --emit-otlp URL`: sends every score back out over OTLP/HTTP (protobuf, `POST URL`, e.g. a
 * Collector's `http://host:4318/v1/logs`) as OpenTelemetry `gen_ai.evaluation.result` events (log
 * records), one per numeric, boolean or text output of each metric, with `gen_ai.evaluation.name`
 * (`<metric type>.<output name>`), `gen_ai.evaluation.score.value` (numbers; booleans as 1 / 0),
 * `gen_ai.evaluation.score.label` (booleans as `true` / `false`, text outputs as they are) and
 * `gen_ai.evaluation.explanation` (the score's diagnostics, when it has any), parented to the trial's
 * root span (its trace id and span id), so that the scores sit next to the traces in any OTel
 * backend. A re-scored trial sends its new results again. Records are sent in batches (the encoding
 * is the OTel SDK's own serializer); a send that fails is told to `onFailure` at once and makes
 * every later `write` fail with it, which `serve` reports as a failed sink.
 *
 * @example
 * const emitter = new EvaluationResultEmitter('http://127.0.0.1:4318/v1/logs', { runId });
 * await emitter.write(scoredTrial);
 * await emitter.shutdown(); // sends what is left
 */
export class EvaluationResultEmitter implements Sink<ScoredTrial> {
  #batch: LogRecord[] = [];
  #timer: NodeJS.Timeout | null = null;
  #sending: Promise<void> = Promise.resolve();
  #failure: Error | null = null;
  readonly #resource;
  readonly #scope = { name: 'evalstream', version: '', schemaUrl: '' };

  constructor(
    private readonly url: string,
    private readonly options: EvaluationResultEmitterOptions,
  ) {
    this.#resource = { attributes: { 'service.name': 'evalstream', 'evalstream.run_id': options.runId } };
  }

  async write(scored: ScoredTrial): Promise<void> {
    if (this.#failure !== null) throw this.#failure;
    const root = await rootSpanOf(scored);
    const now = Date.now();
    const hrTime: [number, number] = [Math.floor(now / 1000), (now % 1000) * 1_000_000];
    for (const score of scored.scores) {
      const explanation = score.diagnostics.map((d) => d.message).join('; ');
      for (const output of score.outputs) {
        const attributes = resultAttributes(`${score.metric_type}.${output.name}`, output.value);
        if (attributes === null) continue;
        if (explanation !== '') attributes['gen_ai.evaluation.explanation'] = explanation;
        attributes['evalstream.trial_id'] = scored.item.trial.id;
        attributes['evalstream.task_id'] = scored.task.id;
        this.#batch.push({
          hrTime,
          hrTimeObserved: hrTime,
          eventName: 'gen_ai.evaluation.result',
          attributes,
          droppedAttributesCount: 0,
          resource: this.#resource,
          instrumentationScope: this.#scope,
          ...(root === null
            ? {}
            : { spanContext: { traceId: root.traceId, spanId: root.spanId, traceFlags: 1 } }),
        } as unknown as LogRecord);
      }
    }
    if (this.#batch.length >= 512) this.#send();
    else this.#timer ??= setTimeout(() => this.#send(), this.options.flushMs ?? 1000);
  }

  /** Sends what is batched; resolves when every send so far is done, rejects if one failed. */
  async flush(): Promise<void> {
    this.#send();
    await this.#sending;
    if (this.#failure !== null) throw this.#failure;
  }

  async shutdown(): Promise<void> {
    await this.flush();
  }

  #send(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#batch.length === 0) return;
    const records = this.#batch;
    this.#batch = [];
    const body = ProtobufLogsSerializer.serializeRequest(records)!;
    this.#sending = this.#sending.then(async () => {
      if (this.#failure !== null) return;
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body,
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
      } catch (error) {
        this.#failure = new Error(
          `--emit-otlp ${this.url}: ${records.length} evaluation results could not be sent (${(error as Error).message})`,
        );
        this.options.onFailure?.(this.#failure);
      }
    });
  }
}

/** The attributes of one output's result, or null for an output that is neither a number, a boolean nor text. */
function resultAttributes(name: string, value: JsonValue): Record<string, string | number> | null {
  const attributes: Record<string, string | number> = { 'gen_ai.evaluation.name': name };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    attributes['gen_ai.evaluation.score.value'] = value;
  } else if (typeof value === 'boolean') {
    attributes['gen_ai.evaluation.score.value'] = value ? 1 : 0;
    attributes['gen_ai.evaluation.score.label'] = String(value);
  } else if (typeof value === 'string') attributes['gen_ai.evaluation.score.label'] = value;
  else return null;
  return attributes;
}

/** The trial's root span: the earliest-starting span whose parent is not in the trial (null without a trace). */
async function rootSpanOf(scored: ScoredTrial): Promise<OtlpSpan | null> {
  const evidence = scored.item.evidence;
  if (evidence === null || evidence.get('trace') === null) return null;
  let spans: readonly OtlpSpan[];
  try {
    spans = spansOfTrace(await evidence.trace());
  } catch {
    return null;
  }
  const ids = new Set(spans.map((s) => s.spanId));
  let root: OtlpSpan | null = null;
  for (const span of spans) {
    if (span.parentSpanId !== '' && ids.has(span.parentSpanId)) continue;
    if (root === null || span.startTimeUnixNano < root.startTimeUnixNano) root = span;
  }
  return root;
}
