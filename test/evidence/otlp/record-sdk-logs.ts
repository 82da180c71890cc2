import { context, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import type { OtlpLogRecord } from '../../../src/evidence/otlp/otlp-types.js';
import { plainValue, sdkValue } from './record-sdk-spans.js';

/** The trace the records below are emitted under (and the span of the evaluation result). */
export const LOG_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const LOG_SPAN_ID = 'b7ad6b7169203331';

/**
 * Records GenAI log records with the real OpenTelemetry JS SDK (`@opentelemetry/sdk-logs`): two
 * providers (two resources), an evaluator's `gen_ai.evaluation.result` event inside a trace, a
 * `gen_ai.choice` event whose body is a nested map with multi-byte text, a plain text log with a
 * severity and no trace, and a record past the attribute limit. The records are the oracle the
 * decoders are checked against.
 */
export function recordSdkLogs(): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const agent = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'agent', 'deployment.id': 7 }),
    processors: [new SimpleLogRecordProcessor(exporter)],
    logRecordLimits: { attributeCountLimit: 4 },
  });
  const judge = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'judge' }),
    processors: [new SimpleLogRecordProcessor(exporter)],
  });
  const inTrace = trace.setSpanContext(context.active(), {
    traceId: LOG_TRACE_ID,
    spanId: LOG_SPAN_ID,
    traceFlags: 1,
  });
  judge.getLogger('judge.lib', '1.0.0').emit({
    eventName: 'gen_ai.evaluation.result',
    severityNumber: SeverityNumber.INFO,
    timestamp: [1_760_000_001, 250_000_000],
    context: inTrace,
    attributes: {
      'gen_ai.evaluation.name': 'helpfulness',
      'gen_ai.evaluation.score.value': 0.75,
      'gen_ai.evaluation.score.label': 'good',
      'gen_ai.evaluation.explanation': 'answered the question',
    },
  });
  const lib = agent.getLogger('agent.lib', '0.9.0');
  lib.emit({
    eventName: 'gen_ai.choice',
    timestamp: [1_760_000_002, 0],
    context: inTrace,
    body: {
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Grüße, 世界! 🚀 '.repeat(40) },
      tokens: [1, 2.5, true],
    },
  });
  lib.emit({
    severityNumber: SeverityNumber.WARN2,
    severityText: 'WARNING',
    timestamp: [1_760_000_003, 1],
    body: 'tool call retried',
    attributes: { 'code.function': 'retry', attempts: 3 },
  });
  lib.emit({
    timestamp: [1_760_000_004, 0],
    context: inTrace,
    body: 'over the limit',
    attributes: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
  });
  return exporter.getFinishedLogRecords();
}

/** One evaluator's result for one trace, or a log record with no trace (`traceId` null). */
export interface EvaluationResult {
  traceId: string | null;
  spanId?: string;
  name: string;
  value: number;
}

/**
 * `gen_ai.evaluation.result` events as another evaluator sends them, recorded with the OTel SDK's
 * logger (`gen_ai.evaluation.name`, `gen_ai.evaluation.score.value`), each in its trace's context.
 */
export function evaluationResultLogs(results: readonly EvaluationResult[]): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': 'external-judge' }),
    processors: [new SimpleLogRecordProcessor(exporter)],
  });
  const logger = provider.getLogger('judge.lib', '1.0.0');
  results.forEach((r, i) => {
    logger.emit({
      eventName: 'gen_ai.evaluation.result',
      timestamp: [1_760_000_100 + i, 0],
      ...(r.traceId === null
        ? {}
        : {
            context: trace.setSpanContext(context.active(), {
              traceId: r.traceId,
              spanId: r.spanId ?? '00f067aa0ba902b7',
              traceFlags: 1,
            }),
          }),
      attributes: { 'gen_ai.evaluation.name': r.name, 'gen_ai.evaluation.score.value': r.value },
    });
  });
  return exporter.getFinishedLogRecords();
}

/** An SDK log body or attribute value as the OTLP serializers map it (maps → kvlist). */
function sdkAnyValue(v: unknown): unknown {
  if (v === undefined) return { type: 'empty' };
  if (Array.isArray(v)) return { type: 'array', values: v.map(sdkAnyValue) };
  if (typeof v === 'object' && v !== null)
    return {
      type: 'kvlist',
      values: Object.entries(v).map(([key, value]) => ({ key, value: sdkAnyValue(value) })),
    };
  return sdkValue(v);
}

const nanos = (t: [number, number]): bigint => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);

/** What the SDK recorded, in the decoders' terms. */
export function expectedLogRecord(r: ReadableLogRecord): unknown {
  return {
    traceId: r.spanContext?.traceId ?? '',
    spanId: r.spanContext?.spanId ?? '',
    time: nanos(r.hrTime),
    observedTime: nanos(r.hrTimeObserved),
    severityNumber: r.severityNumber ?? 0,
    severityText: r.severityText ?? '',
    eventName: r.eventName ?? '',
    body: sdkAnyValue(r.body),
    attributes: Object.fromEntries(Object.entries(r.attributes).map(([k, v]) => [k, sdkAnyValue(v)])),
    droppedAttributesCount: r.droppedAttributesCount,
    flags: r.spanContext?.traceFlags ?? 0,
    resource: Object.fromEntries(Object.entries(r.resource.attributes).map(([k, v]) => [k, sdkAnyValue(v)])),
    scope: { name: r.instrumentationScope.name, version: r.instrumentationScope.version ?? '' },
  };
}

/** A decoded log record in the same shape as `expectedLogRecord`. */
export function decodedLogRecord(r: OtlpLogRecord): unknown {
  const plain = (kvs: { key: string; value: Parameters<typeof plainValue>[0] }[]): Record<string, unknown> =>
    Object.fromEntries(kvs.map((kv) => [kv.key, plainValue(kv.value)]));
  return {
    traceId: r.traceId,
    spanId: r.spanId,
    time: r.timeUnixNano,
    observedTime: r.observedTimeUnixNano,
    severityNumber: r.severityNumber,
    severityText: r.severityText,
    eventName: r.eventName,
    body: plainValue(r.body),
    attributes: plain(r.attributes.entries()),
    droppedAttributesCount: r.droppedAttributesCount,
    flags: r.flags,
    resource: plain(r.resource.attributes.entries()),
    scope: { name: r.scope.name, version: r.scope.version },
  };
}
