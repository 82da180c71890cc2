import { context, trace, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/**
 * An instrumented fake agent: each trial is one `invoke_agent` root span with chat and tool spans
 * beneath it, stamped with the NeMo keys (`gen_ai.conversation.id`, `nemo.test_case.name`) and
 * GenAI usage attributes. Spans go to the given exporter and to an in-memory copy.
 */
export function fakeAgent(exporter: SpanExporter): {
  runTrial: (task: string, trial: string, opts?: { tools?: string[]; fail?: boolean; end?: boolean }) => void;
  recorded: InMemorySpanExporter;
  provider: BasicTracerProvider;
} {
  const recorded = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'fake-agent' }),
    spanProcessors: [new SimpleSpanProcessor(exporter), new SimpleSpanProcessor(recorded)],
  });
  const tracer: Tracer = provider.getTracer('fake-agent', '1.0.0');
  const runTrial = (
    task: string,
    trial: string,
    opts: { tools?: string[]; fail?: boolean; end?: boolean } = {},
  ): void => {
    const keys = { 'gen_ai.conversation.id': trial, 'nemo.test_case.name': task };
    const root = tracer.startSpan('invoke_agent fake', {
      attributes: { ...keys, 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'fake' },
      startTime: [1_700_000_000, 0],
    });
    const ctx = trace.setSpan(context.active(), root);
    let t = 1_700_000_000;
    for (const tool of opts.tools ?? ['get_weather']) {
      const chat = tracer.startSpan(
        'chat gpt-test',
        {
          attributes: {
            ...keys,
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-test',
            'gen_ai.usage.input_tokens': 100,
            'gen_ai.usage.output_tokens': 20,
          },
          startTime: [++t, 0],
        },
        ctx,
      );
      chat.end([t, 500_000_000]);
      const call = tracer.startSpan(
        `execute_tool ${tool}`,
        {
          attributes: {
            ...keys,
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': tool,
            'gen_ai.tool.call.id': `call-${trial}-${t}`,
            'gen_ai.tool.call.arguments': JSON.stringify({ city: 'Paris' }),
            'gen_ai.tool.call.result': JSON.stringify({ temp: 21 }),
          },
          startTime: [++t, 0],
        },
        ctx,
      );
      if (opts.fail === true) call.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
      call.end([t, 100_000_000]);
    }
    const final = tracer.startSpan(
      'chat gpt-test',
      {
        attributes: {
          ...keys,
          'gen_ai.operation.name': 'chat',
          'gen_ai.usage.input_tokens': 150,
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: `answer for ${trial}` }] },
          ]),
        },
        startTime: [++t, 0],
      },
      ctx,
    );
    final.end([t, 900_000_000]);
    if (opts.end !== false) root.end([t + 1, 0]);
  };
  return { runTrial, recorded, provider };
}
