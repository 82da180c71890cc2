import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonHttpExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoHttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fakeAgent } from './fake-agent.js';

/**
 * Six trials of two tasks sent by the real OTel exporters, two each: OTLP/HTTP protobuf (`p1`, `p2`),
 * OTLP/HTTP JSON (`j1`, `j2`, one failed) and OTLP/gRPC (`g1` without tools, `g2`); resolves once all
 * are flushed, with the spans sent and a function that shuts the exporters down.
 *
 * @example
 * const { spans, shutdown } = await sendMixedExporterTrials('http://127.0.0.1:4318', 'http://127.0.0.1:4317');
 */
export async function sendMixedExporterTrials(
  httpUrl: string,
  grpcUrl: string,
): Promise<{ spans: ReadableSpan[]; shutdown: () => Promise<void> }> {
  const proto = fakeAgent(new ProtoHttpExporter({ url: `${httpUrl}/v1/traces` }));
  const json = fakeAgent(new JsonHttpExporter({ url: `${httpUrl}/v1/traces` }));
  const viaGrpc = fakeAgent(new GrpcExporter({ url: grpcUrl }));
  proto.runTrial('weather', 'p1');
  proto.runTrial('weather', 'p2', { tools: ['get_weather', 'get_weather', 'get_weather'] });
  json.runTrial('time', 'j1', { tools: ['get_time', 'get_time'] });
  json.runTrial('weather', 'j2', { fail: true });
  viaGrpc.runTrial('time', 'g1', { tools: [] });
  viaGrpc.runTrial('time', 'g2', { tools: ['get_time', 'lookup'] });
  const agents = [proto, json, viaGrpc];
  await Promise.all(agents.map((a) => a.provider.forceFlush()));
  return {
    spans: agents.flatMap((a) => a.recorded.getFinishedSpans()),
    shutdown: async () => void (await Promise.all(agents.map((a) => a.provider.shutdown()))),
  };
}
