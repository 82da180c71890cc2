import * as grpc from '@grpc/grpc-js';
import type { BodyBudget } from './body-budget.js';
import { checkBearerToken } from './check-bearer-token.js';
import { encodeExportResponseProto, type ExportOutcome } from './export-response.js';
import type { BodyHandler, OtlpSignal, Saturated, Undecodable } from './serve-types.js';

/** Configuration of the OTLP/gRPC receiver. */
export interface OtlpGrpcServerConfig {
  host: string;
  port: number;
  token: string | null;
  /** Largest accepted message (after decompression), bytes; larger → RESOURCE_EXHAUSTED. */
  maxMessageBytes: number;
  /**
   * How long an export that finds the queues full waits for room before RESOURCE_EXHAUSTED (ms; 0 or
   * absent: answers at once). As OTLP/HTTP's `saturationWaitMs`, except that gRPC has already read
   * the message by then.
   */
  saturationWaitMs?: number | undefined;
  /** The bytes of bodies all receivers may hold at once (shared with OTLP/HTTP); absent: no bound. */
  budget?: BodyBudget | undefined;
}

/** The `Export` method of an OTLP collector service, its messages passed through as bytes. */
const exportService = (path: string): grpc.ServiceDefinition => ({
  Export: {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: Buffer) => value,
    requestDeserialize: (bytes: Buffer) => bytes,
    responseSerialize: (outcome: ExportOutcome) => Buffer.from(encodeExportResponseProto(outcome)),
    responseDeserialize: (bytes: Buffer) => bytes,
    originalName: 'export',
  },
});

const traceService = exportService('/opentelemetry.proto.collector.trace.v1.TraceService/Export');
const logsService = exportService('/opentelemetry.proto.collector.logs.v1.LogsService/Export');

/**
 * The OTLP/gRPC receiver: `opentelemetry.proto.collector.trace.v1.TraceService/Export` and
 * `opentelemetry.proto.collector.logs.v1.LogsService/Export` on its own port. Raw request bytes go through the same decoder and handler as OTLP/HTTP; saturation answers
 * RESOURCE_EXHAUSTED (with a retry delay in the trailers), after waiting up to `saturationWaitMs`
 * for room, and shutdown answers UNAVAILABLE.
 *
 * @example
 * const grpcServer = new OtlpGrpcServer({ host: '127.0.0.1', port: 4317, token: null, maxMessageBytes: 64 << 20 }, handler);
 * await grpcServer.start();
 */
export class OtlpGrpcServer {
  #server: grpc.Server | null = null;
  #accepting = true;

  constructor(
    private readonly config: OtlpGrpcServerConfig,
    private readonly handler: BodyHandler,
  ) {}

  /** Binds the port; resolves with the bound port (0 picks a free one). */
  async start(): Promise<number> {
    // grpc-js would print its own line for a port it cannot bind; the rejection below says it once
    grpc.setLogVerbosity(grpc.logVerbosity.NONE);
    const server = new grpc.Server({
      'grpc.max_receive_message_length': this.config.maxMessageBytes,
      'grpc.max_send_message_length': 4 * 1024 * 1024,
    });
    server.addService(traceService, { Export: this.#exporter('traces') });
    server.addService(logsService, { Export: this.#exporter('logs') });
    this.#server = server;
    return await new Promise<number>((resolve, reject) => {
      server.bindAsync(
        `${this.config.host}:${this.config.port}`,
        grpc.ServerCredentials.createInsecure(),
        (error, port) => (error ? reject(error) : resolve(port)),
      );
    });
  }

  /** Stops taking exports (UNAVAILABLE from now on) without closing the port. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  async shutdown(): Promise<void> {
    this.#accepting = false;
    const server = this.#server;
    this.#server = null;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.tryShutdown(() => resolve());
      setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 2000).unref();
    });
  }

  readonly #exporter =
    (signal: OtlpSignal) =>
    (
      call: grpc.ServerUnaryCall<Buffer, ExportOutcome>,
      callback: grpc.sendUnaryData<ExportOutcome>,
    ): void => {
      const auth = call.metadata.get('authorization')[0];
      if (!checkBearerToken(typeof auth === 'string' ? auth : undefined, this.config.token)) {
        callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing or wrong bearer token' });
        return;
      }
      const waitMs = this.config.saturationWaitMs ?? 0;
      if (waitMs > 0 && this.#accepting && this.handler.isSaturated()) {
        // wait for room (or the wait's end), then take it as any other export
        void this.handler.waitForCapacity(waitMs).then(() => this.#take(call.request, callback, signal));
        return;
      }
      this.#take(call.request, callback, signal);
    };

  #take(request: Buffer, callback: grpc.sendUnaryData<ExportOutcome>, signal: OtlpSignal): void {
    if (!this.#accepting) {
      callback({ code: grpc.status.UNAVAILABLE, details: 'receiver is shutting down' });
      return;
    }
    const early = this.handler.saturation();
    if (early !== null) {
      exhausted(callback, early);
      return;
    }
    const answer = (outcome: ExportOutcome | Saturated | Undecodable): void => {
      if ('undecodable' in outcome) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: outcome.undecodable });
      } else if ('saturated' in outcome) exhausted(callback, outcome);
      else callback(null, outcome);
    };
    // grpc-js has read (and inflated) the message already: it is counted while it is handed over
    const budget = this.config.budget;
    const held = request.length;
    if (budget !== undefined && !budget.take(held)) {
      exhausted(callback, { saturated: true, retryAfterSec: 1, message: budget.refusal() });
      return;
    }
    let outcome;
    try {
      outcome = this.handler.acceptBody(request, 'protobuf', signal);
    } finally {
      budget?.give(held);
    }
    answer(outcome);
  }
}

/** RESOURCE_EXHAUSTED with the `retry-after` trailer. */
function exhausted(callback: grpc.sendUnaryData<ExportOutcome>, saturated: Saturated): void {
  const trailers = new grpc.Metadata();
  trailers.set('retry-after', String(saturated.retryAfterSec));
  callback({ code: grpc.status.RESOURCE_EXHAUSTED, details: saturated.message, metadata: trailers });
}
