import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkBearerToken } from './check-bearer-token.js';
import {
  encodeExportResponseJson,
  encodeExportResponseProto,
  encodeRpcStatusProto,
  type ExportOutcome,
} from './export-response.js';
import type { BodyBudget } from './body-budget.js';
import { BodyReadError, readLimitedBody, type BodyLimits } from './read-limited-body.js';
import type { BodyHandler, LiveReadApi, OtlpSignal, Saturated } from './serve-types.js';
import { livePageHtml } from './live-page-html.js';

/** Configuration of the OTLP/HTTP receiver and live API. */
export interface OtlpHttpServerConfig extends BodyLimits {
  host: string;
  port: number;
  /** Bearer token required on every route but `/healthz`; null = no auth. */
  token: string | null;
  /**
   * How long a request that finds the queues full waits, unread, for room before it is refused with
   * 429 (0 or absent: refused at once). While it waits its body stays in the socket, so TCP holds the
   * sender back instead of the body crossing the wire to be thrown away.
   */
  saturationWaitMs?: number | undefined;
  /** The bytes of bodies all receivers may hold at once (shared with gRPC); absent: no such bound. */
  budget?: BodyBudget | undefined;
  /**
   * Longest time (ms) a request may take to arrive in full, headers and body; past it the request is
   * answered 408 and its connection closed (a sender that trickles its body cannot hold memory for
   * long). Default 30 s.
   */
  requestTimeoutMs?: number | undefined;
}

type Encoding = 'protobuf' | 'json';

function contentEncodingOf(req: IncomingMessage): Encoding | null {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

function sendFailure(res: ServerResponse, encoding: Encoding | null, status: number, message: string): void {
  if (encoding === 'json') {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: grpcCodeForHttp(status), message }));
  } else if (encoding === 'protobuf') {
    res.writeHead(status, { 'content-type': 'application/x-protobuf' });
    res.end(encodeRpcStatusProto(grpcCodeForHttp(status), message));
  } else {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(message + '\n');
  }
}

/** 503 with `Retry-After` while the receiver shuts down (the body is discarded unread). */
function sendShuttingDown(req: IncomingMessage, res: ServerResponse, encoding: Encoding): void {
  req.resume();
  res.setHeader('retry-after', '5');
  sendFailure(res, encoding, 503, 'receiver is shutting down');
}

/** 429 with `Retry-After` (the handler's queues are full). */
function sendThrottled(res: ServerResponse, encoding: Encoding, saturated: Saturated): void {
  res.setHeader('retry-after', String(saturated.retryAfterSec));
  sendFailure(res, encoding, 429, saturated.message);
}

function grpcCodeForHttp(status: number): number {
  if (status === 400) return 3; // INVALID_ARGUMENT
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 408) return 4; // DEADLINE_EXCEEDED
  if (status === 413 || status === 429) return 8; // RESOURCE_EXHAUSTED
  if (status === 503) return 14; // UNAVAILABLE
  return 2; // UNKNOWN
}

const PROTOBUF_HEADERS = { 'content-type': 'application/x-protobuf' };
const EMPTY_PROTOBUF_HEADERS = { 'content-type': 'application/x-protobuf', 'content-length': '0' };

function sendOutcome(
  res: ServerResponse,
  encoding: Encoding,
  outcome: ExportOutcome,
  signal: OtlpSignal,
): void {
  if (encoding === 'json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(encodeExportResponseJson(outcome, signal === 'logs' ? 'rejectedLogRecords' : 'rejectedSpans'));
  } else if (outcome.rejectedSpans === 0 && outcome.errorMessage === '') {
    // full success: the empty ExportTraceServiceResponse, as a Content-Length: 0 body (not chunked)
    res.writeHead(200, EMPTY_PROTOBUF_HEADERS);
    res.end();
  } else {
    res.writeHead(200, PROTOBUF_HEADERS);
    res.end(encodeExportResponseProto(outcome));
  }
}

/** Answers with `value` as JSON; `headers` (extra ones) is asked after the JSON text is made. */
function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: () => Record<string, string> = () => ({}),
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers(),
  });
  res.end(body);
}

/**
 * The OTLP/HTTP receiver (`POST /v1/traces` and `POST /v1/logs`, protobuf and JSON, gzip) plus the live read API
 * (`/v1/summary`, `/v1/trials/{id}`, `/v1/events`, `/`, `/healthz`, `/metrics`) on one port.
 * `start` resolves with the bound address; `shutdown` stops accepting, ends SSE streams and is safe
 * to call twice or before `start`.
 *
 * @example
 * const server = new OtlpHttpServer(config, decodingBodyHandler(engine), engine);
 * const { port } = await server.start();
 */
export class OtlpHttpServer {
  #server: Server | null = null;
  readonly #sse = new Set<ServerResponse>();
  #accepting = true;

  constructor(
    private readonly config: OtlpHttpServerConfig,
    private readonly handler: BodyHandler,
    private readonly api: LiveReadApi,
  ) {}

  /** Binds the port; resolves with the actual address (port 0 picks a free one). */
  async start(): Promise<AddressInfo> {
    const requestTimeout = this.config.requestTimeoutMs ?? 30_000;
    const options = {
      requestTimeout,
      headersTimeout: requestTimeout,
      // how often Node checks the timeouts above (its default, 30 s, would let them run late)
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 4))),
    };
    const server = createServer(options, (req, res) => {
      this.#route(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendFailure(res, null, 500, `internal error: ${(error as Error).message}`);
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 30_000;
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return server.address() as AddressInfo;
  }

  /** Stops taking exports (answers 503 from now on) without closing the port. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  async shutdown(): Promise<void> {
    this.#accepting = false;
    for (const res of this.#sse) res.end();
    this.#sse.clear();
    const server = this.#server;
    this.#server = null;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The export paths are the hot ones: no URL object when the target is exactly one of them.
    const exported = req.url === '/v1/traces' ? 'traces' : req.url === '/v1/logs' ? 'logs' : null;
    if (exported !== null && req.method === 'POST') {
      if (!checkBearerToken(req.headers.authorization, this.config.token)) {
        this.#unauthorized(req, res);
        return;
      }
      await this.#export(req, res, exported);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/healthz') {
      const problem = this.api.problem();
      sendJson(
        res,
        problem === null ? 200 : 503,
        problem === null ? { status: 'ok' } : { status: 'unhealthy', problem },
      );
      return;
    }
    const queryToken = url.searchParams.get('token');
    const authorization =
      req.method === 'GET' && queryToken !== null ? `Bearer ${queryToken}` : req.headers.authorization;
    if (!checkBearerToken(authorization, this.config.token)) {
      this.#unauthorized(req, res);
      return;
    }
    if (path === '/v1/traces' || path === '/v1/logs') {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' });
        res.end();
        return;
      }
      await this.#export(req, res, path === '/v1/logs' ? 'logs' : 'traces');
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' });
      res.end();
      return;
    }
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(livePageHtml());
    } else if (path === '/v1/summary') {
      this.#summary(url, res);
    } else if (path.startsWith('/v1/trials/')) {
      const id = decodeURIComponent(path.slice('/v1/trials/'.length));
      const trial = this.api.trialJson(id);
      if (trial === undefined) sendJson(res, 404, { error: `no trial '${id}'` });
      else sendJson(res, 200, trial);
    } else if (path === '/v1/events') {
      this.#events(req, res);
    } else if (path === '/metrics') {
      const text = this.api.metricsText();
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(text);
    } else {
      sendJson(res, 404, { error: `no route ${path}` });
    }
  }

  /**
   * `GET /v1/summary`: the summary, or with `?omit=task_metric_values` the summary without that key
   * (one record per trial and output: tens of MB for 50,000 trials, which the live page does not
   * show). `Server-Timing: summary;dur=…` says how long the answer took to build, so that a poller
   * (the live page) can space its reads out as the summary grows.
   */
  #summary(url: URL, res: ServerResponse): void {
    const started = performance.now();
    const omit = url.searchParams.getAll('omit').flatMap((v) => v.split(','));
    const unknown = omit.filter((k) => k !== 'task_metric_values');
    if (unknown.length > 0) {
      sendJson(res, 400, {
        error: `omit: only 'task_metric_values' can be left out, not ${unknown.map((k) => `'${k}'`).join(', ')}`,
      });
      return;
    }
    // the build time includes the JSON text, made by sendJson before it asks for the headers
    const summary = this.api.summaryJson({ omitTaskValues: omit.includes('task_metric_values') });
    sendJson(res, 200, summary, () => ({
      'server-timing': `summary;dur=${(performance.now() - started).toFixed(1)}`,
    }));
  }

  async #export(req: IncomingMessage, res: ServerResponse, signal: OtlpSignal): Promise<void> {
    const encoding = contentEncodingOf(req);
    if (encoding === null) {
      req.resume();
      sendFailure(
        res,
        null,
        415,
        `unsupported Content-Type '${String(req.headers['content-type'] ?? '')}': use application/x-protobuf or application/json`,
      );
      return;
    }
    if (!this.#accepting) {
      sendShuttingDown(req, res, encoding);
      return;
    }
    const waitMs = this.config.saturationWaitMs ?? 0;
    if (waitMs > 0 && this.handler.isSaturated()) {
      await this.handler.waitForCapacity(waitMs);
      if (!this.#accepting) {
        sendShuttingDown(req, res, encoding);
        return;
      }
    }
    const early = this.handler.saturation();
    if (early !== null) {
      // refused unread: the rest of the body is discarded as it arrives, not buffered or decoded
      req.resume();
      sendThrottled(res, encoding, early);
      return;
    }
    let body: Buffer;
    const budget = this.config.budget;
    try {
      body = await readLimitedBody(req, this.config, budget);
    } catch (error) {
      if (error instanceof BodyReadError) {
        if (error.status === 429) res.setHeader('retry-after', '1');
        sendFailure(res, encoding, error.status, error.message);
        return;
      }
      throw error;
    }
    const held = body.length;
    let outcome;
    try {
      outcome = this.handler.acceptBody(body, encoding, signal);
    } finally {
      budget?.give(held);
    }
    if ('undecodable' in outcome) {
      sendFailure(res, encoding, 400, outcome.undecodable);
      return;
    }
    if ('saturated' in outcome) {
      sendThrottled(res, encoding, outcome);
      return;
    }
    sendOutcome(res, encoding, outcome, signal);
  }

  #unauthorized(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain; charset=utf-8' });
    res.end('missing or wrong bearer token\n');
  }

  #events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    this.#sse.add(res);
    const unsubscribe = this.api.onEvent((event) =>
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`),
    );
    req.on('close', () => {
      unsubscribe();
      this.#sse.delete(res);
    });
  }
}
