/**
 * Requests waiting for room in the live engine's queues, oldest first: each waits until it is let
 * in (`admitOldest`, one per freed slot), everyone is let go (`releaseAll`, at shutdown), or its
 * own timeout passes; either way its promise resolves and the caller asks again whether there is
 * room.
 *
 * @example
 * const waiters = new CapacityWaiters();
 * await waiters.wait(1000); // elsewhere, as a slot frees: waiters.admitOldest();
 */
export class CapacityWaiters {
  readonly #waiting: { resolve: () => void; timer: NodeJS.Timeout }[] = [];

  get size(): number {
    return this.#waiting.length;
  }

  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiter = {
        resolve,
        timer: setTimeout(() => {
          const at = this.#waiting.indexOf(waiter);
          if (at >= 0) this.#waiting.splice(at, 1);
          resolve();
        }, timeoutMs),
      };
      this.#waiting.push(waiter);
    });
  }

  /** Lets the oldest waiter in; false when none waits. */
  admitOldest(): boolean {
    const waiter = this.#waiting.shift();
    if (waiter === undefined) return false;
    clearTimeout(waiter.timer);
    waiter.resolve();
    return true;
  }

  releaseAll(): void {
    while (this.admitOldest());
  }
}
