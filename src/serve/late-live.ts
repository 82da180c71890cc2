import type { ExportOutcome } from './export-response.js';
import type { BodyHandler, LiveReadApi, OtlpSignal, Saturated, Undecodable } from './serve-types.js';

const STARTING: Saturated = {
  saturated: true,
  retryAfterSec: 1,
  message: 'receiver is starting; retry later',
};

/**
 * The receivers' handler and read API before the live run exists: `serve` binds its ports first (a
 * busy port fails before the store or the bundle is touched), then opens the run and hands it over
 * with `set`. Until then exports are answered 429 / RESOURCE_EXHAUSTED ("starting") and reads are
 * empty.
 *
 * @example
 * const late = new LateLive();
 * const server = new OtlpHttpServer(config, late, late);
 * await server.start();
 * late.set(engine, engine);
 */
export class LateLive implements BodyHandler, LiveReadApi {
  #bodies: BodyHandler | null = null;
  #api: LiveReadApi | null = null;

  set(bodies: BodyHandler, api: LiveReadApi): void {
    this.#bodies = bodies;
    this.#api = api;
  }

  saturation(): Saturated | null {
    return this.#bodies === null ? STARTING : this.#bodies.saturation();
  }

  isSaturated(): boolean {
    return this.#bodies?.isSaturated() ?? false;
  }

  waitForCapacity(timeoutMs: number): Promise<void> {
    return this.#bodies?.waitForCapacity(timeoutMs) ?? Promise.resolve();
  }

  acceptBody(
    body: Buffer,
    encoding: 'protobuf' | 'json',
    signal?: OtlpSignal,
  ): ExportOutcome | Saturated | Undecodable {
    return this.#bodies === null ? STARTING : this.#bodies.acceptBody(body, encoding, signal);
  }

  summaryJson(options?: { omitTaskValues?: boolean }): unknown {
    return this.#api?.summaryJson(options) ?? {};
  }

  trialJson(trialId: string): unknown {
    return this.#api?.trialJson(trialId);
  }

  metricsText(): string {
    return this.#api?.metricsText() ?? '';
  }

  onEvent(listener: (event: { type: string; data: unknown }) => void): () => void {
    // the live page subscribes once; before the run exists there is nothing to hear
    return this.#api?.onEvent(listener) ?? (() => undefined);
  }

  problem(): string | null {
    return this.#api === null ? 'starting' : this.#api.problem();
  }
}
