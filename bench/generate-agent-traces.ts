/**
 * Generates realistic agent traces with the real OpenTelemetry JS SDK (BasicTracerProvider +
 * InMemorySpanExporter) serialized by its own ProtobufTraceSerializer, written as the Collector file
 * exporter writes `format: proto`: 4-byte big-endian length, then one ExportTraceServiceRequest.
 *
 * One trial = one trace, content capture on: an `invoke_agent` root stamped like NeMo publishing does
 * (`gen_ai.conversation.id`, `nemo.test_case.name`) with the user request and final answer as
 * messages; 4–6 `chat` spans with usage, response ids and four message attributes of 500–2000 bytes
 * each (`gen_ai.system_instructions`, `gen_ai.tool.definitions`, `gen_ai.input.messages`,
 * `gen_ai.output.messages`); an `execute_tool` span (100–500-byte arguments, 500–2000-byte result)
 * after every chat but the last. About 10 spans and 38 KB per trial (~26k trials per GB). The `small`
 * shape (`recordTrialPool(n, seed, 'small')`) has the same spans with message attributes of 20–70
 * bytes and tool arguments of 20–60: about 7 KB per trial, most of it the spans' ids, times and
 * attribute keys (~140k trials per GB). A pool of distinct trials is
 * recorded with the SDK; larger dumps repeat the pool with fresh trace and conversation ids patched
 * into the serialized bytes (same lengths), so every trial stays distinct.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { context, trace, SpanKind } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { mulberry32 } from './mulberry32.js';

const WORDS =
  'the agent cluster namespace pod service deployment weather city forecast query result tool call model ' +
  'token answer user request response error retry latency kubernetes helm release chart value config ' +
  'summary report data table row column index search document page section paragraph sentence'.split(' ');

function text(r: () => number, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(r() * WORDS.length)] as string;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ').slice(0, bytes);
}

/** A trial shape: the byte range of each message attribute and of a tool call's arguments. */
interface ShapeBytes {
  message: [number, number];
  toolArguments: [number, number];
}
/**
 * The trial shapes: `default` (~38 KB per trial, ~26k trials per GB) and `small` (~7 KB per trial,
 * ~140k trials per GB: a dump of many small trials, where what a run keeps per trial shows).
 */
export const TRIAL_SHAPES = {
  default: { message: [500, 2000], toolArguments: [100, 500] },
  small: { message: [20, 70], toolArguments: [20, 60] },
} satisfies Record<string, ShapeBytes>;
/** The name of a trial shape. */
export type TrialShape = keyof typeof TRIAL_SHAPES;
const between = (r: () => number, [min, max]: [number, number]): number =>
  min + Math.floor(r() * (max - min));
const TOOLS = ['search', 'lookup', 'get_weather', 'k8s_get_resources'];
const CONV_WIDTH = 12;
const convId = (n: number): string => `conv-${String(n).padStart(CONV_WIDTH, '0')}`;

/** Distinct trials recorded with the SDK: each serialized request, its span count and trace id. */
export interface TrialPool {
  frames: Buffer[];
  spanCounts: number[];
  traceIds: Buffer[];
}

/** Records `count` distinct trials with the SDK; returns each as one serialized request. */
export function recordTrialPool(count: number, seed = 1, shape: TrialShape = 'default'): TrialPool {
  const r = mulberry32(seed);
  const bytes: ShapeBytes = TRIAL_SHAPES[shape];
  const [, maxMessage] = bytes.message;
  const size = (r: () => number): number => between(r, bytes.message);
  // the text beside a tool call leaves room for the call (a tenth of the largest message)
  const callRoom = maxMessage / 10;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-agent', 'service.version': '1.0.0' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('bench.agent', '1.0.0');
  const frames: Buffer[] = [];
  const spanCounts: number[] = [];
  const traceIds: Buffer[] = [];
  let t0 = 1_760_000_000;
  for (let i = 0; i < count; i += 1) {
    const request = text(r, size(r));
    const answer = text(r, size(r));
    const root = tracer.startSpan('invoke_agent bench', {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'bench',
        'gen_ai.conversation.id': convId(i),
        'nemo.test_case.name': `task-${i % 97}`,
        'gen_ai.input.messages': JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: request }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: answer }] },
        ]),
      },
      startTime: [t0, 0],
    });
    const ctx = trace.setSpan(context.active(), root);
    const chats = 4 + Math.floor(r() * 3);
    let ns = 1000;
    const system = text(r, size(r));
    const tools = JSON.stringify(
      TOOLS.map((name) => ({
        type: 'function',
        name,
        description: text(r, 80),
        parameters: { type: 'object' },
      })),
    ).slice(0, size(r));
    const history: unknown[] = [{ role: 'user', parts: [{ type: 'text', content: request }] }];
    for (let c = 0; c < chats; c += 1) {
      const last = c === chats - 1;
      const toolName = TOOLS[c % TOOLS.length] as string;
      const output = last
        ? [{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }]
        : [
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: text(r, size(r) - callRoom) },
                { type: 'tool_call', id: `call_${i}_${c}`, name: toolName, arguments: { q: text(r, 60) } },
              ],
              finish_reason: 'tool_call',
            },
          ];
      const inputText = JSON.stringify(history.slice(-2));
      const chat = tracer.startSpan(
        'chat bench-model',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': 'bench-model',
            'gen_ai.response.model': 'bench-model-2026-01-01',
            'gen_ai.response.id': `resp_${i}_${c}`,
            'gen_ai.response.finish_reasons': [last ? 'stop' : 'tool_calls'],
            'gen_ai.usage.input_tokens': 200 + Math.floor(r() * 2000),
            'gen_ai.usage.output_tokens': 10 + Math.floor(r() * 300),
            'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: system }]),
            'gen_ai.tool.definitions': tools,
            'gen_ai.input.messages':
              inputText.length > maxMessage ? inputText.slice(0, maxMessage) : inputText,
            'gen_ai.output.messages': JSON.stringify(output),
          },
          startTime: [t0, ns],
        },
        ctx,
      );
      ns += 1_000_000;
      chat.end([t0, ns]);
      if (!last) {
        const result = JSON.stringify({ rows: text(r, size(r)) });
        const tool = tracer.startSpan(
          `execute_tool ${toolName}`,
          {
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.tool.name': toolName,
              'gen_ai.tool.type': 'function',
              'gen_ai.tool.call.id': `call_${i}_${c}`,
              'gen_ai.tool.call.arguments': JSON.stringify({ q: text(r, between(r, bytes.toolArguments)) }),
              'gen_ai.tool.call.result': result,
            },
            startTime: [t0, ns],
          },
          ctx,
        );
        ns += 1_000_000;
        tool.end([t0, ns]);
        history.push({
          role: 'tool',
          parts: [{ type: 'tool_call_response', id: `call_${i}_${c}`, response: result }],
        });
      }
    }
    root.end([t0, ns + 1000]);
    t0 += 1;
    const finished = exporter.getFinishedSpans();
    frames.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(finished) as Uint8Array));
    spanCounts.push(finished.length);
    traceIds.push(Buffer.from(root.spanContext().traceId, 'hex'));
    exporter.reset();
  }
  return { frames, spanCounts, traceIds };
}

/** A copy of pool trial `k` as trial `n`: fresh trace id and conversation id, same byte length. */
function patched(pool: TrialPool, k: number, n: number): Buffer {
  const out = Buffer.from(pool.frames[k] as Buffer);
  const oldConv = Buffer.from(convId(k));
  const newConv = Buffer.from(convId(n));
  for (let at = out.indexOf(oldConv); at >= 0; at = out.indexOf(oldConv, at + 1)) newConv.copy(out, at);
  const oldTrace = pool.traceIds[k] as Buffer;
  const newTrace = Buffer.alloc(16);
  newTrace.writeUInt32BE(0xbe0c0000, 0);
  newTrace.writeUInt32BE(n, 12);
  for (let at = out.indexOf(oldTrace); at >= 0; at = out.indexOf(oldTrace, at + 1)) newTrace.copy(out, at);
  return out;
}

/** Writes a framed dump of about `targetBytes`; returns what it holds. */
export async function writeAgentTraceDump(
  file: string,
  targetBytes: number,
  pool: TrialPool,
): Promise<{ bytes: number; trials: number; spans: number }> {
  await mkdir(dirname(file), { recursive: true });
  const out = createWriteStream(file);
  let bytes = 0;
  let trials = 0;
  let spans = 0;
  while (bytes < targetBytes) {
    const k = trials % pool.frames.length;
    const frame = trials < pool.frames.length ? (pool.frames[k] as Buffer) : patched(pool, k, trials);
    spans += pool.spanCounts[k] as number;
    const head = Buffer.alloc(4);
    head.writeUInt32BE(frame.length);
    if (!out.write(head) || !out.write(frame)) await once(out, 'drain');
    bytes += 4 + frame.length;
    trials += 1;
  }
  out.end();
  await once(out, 'finish');
  return { bytes, trials, spans };
}
