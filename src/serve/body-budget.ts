/**
 * The bytes of request bodies that all receivers together may hold while reading, inflating and
 * handing them over (one budget shared by OTLP/HTTP and gRPC). A request whose next chunk does not
 * fit is refused with 429 / RESOURCE_EXHAUSTED instead of growing memory: forty gzip bombs at once
 * cost at most this, not forty times the per-body limit.
 *
 * @example
 * const budget = new BodyBudget(128 << 20);
 * if (!budget.take(chunk.length)) refuse();
 * budget.give(chunk.length); // when the bytes are handed over or dropped
 */
export class BodyBudget {
  #used = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get usedBytes(): number {
    return this.#used;
  }

  /** Holds `n` more bytes if they fit; false (nothing held) when they do not. */
  take(n: number): boolean {
    if (this.#used + n > this.maxBytes) return false;
    this.#used += n;
    return true;
  }

  /** Why a request that does not fit is refused. */
  refusal(): string {
    return `the receiver holds ${this.#used} bytes of request bodies already (limit ${this.maxBytes}); retry later`;
  }

  /** Gives back `n` bytes held by {@link take}. */
  give(n: number): void {
    this.#used -= n;
  }
}
