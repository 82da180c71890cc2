import { Observable } from 'rxjs';

/**
 * A stream that is read on demand: an `Observable` (subscribe to get every value) that is also an
 * `AsyncIterable` (pull one value at a time). Each subscription or iteration calls `open` afresh, so
 * it is cold like any Observable. Pull-aware stages (`scoreTrials`, `writeToSinks`) iterate it: the
 * next value is produced only when they have room for it, which is how backpressure reaches a file
 * source. A plain subscriber drives the iterator as fast as it takes values; unsubscribing ends the
 * iteration (its `finally` blocks run once the pending read settles).
 *
 * @example
 * const lines = new PullSource(async function* () { yield* ['a', 'b']; });
 * for await (const line of lines) console.log(line); // pulled one by one
 * lines.subscribe((line) => console.log(line)); // or pushed
 */
export class PullSource<T> extends Observable<T> implements AsyncIterable<T> {
  readonly #open: () => AsyncIterable<T>;

  constructor(open: () => AsyncIterable<T>) {
    super((subscriber) => {
      const iterator = open()[Symbol.asyncIterator]();
      let stopped = false;
      const drive = async (): Promise<void> => {
        try {
          for (;;) {
            const next = await iterator.next();
            if (stopped) return;
            if (next.done === true) {
              subscriber.complete();
              return;
            }
            subscriber.next(next.value);
            if (stopped) return;
          }
        } catch (error) {
          if (!stopped) subscriber.error(error);
        }
      };
      void drive();
      return () => {
        if (stopped) return;
        stopped = true;
        void iterator.return?.()?.catch(() => undefined);
      };
    });
    this.#open = open;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.#open()[Symbol.asyncIterator]();
  }
}
