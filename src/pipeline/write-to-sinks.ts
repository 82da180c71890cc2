import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  finalize,
  ignoreElements,
  throwError,
  type MonoTypeOperatorFunction,
} from 'rxjs';
import type { Sink } from '../sinks/sink.js';
import { PullSource } from './pull-source.js';

/**
 * The pipeline's one fan-out point: each value is written to every sink (in parallel across sinks,
 * one value at a time, so each sink sees input order) and re-emitted once all writes resolved. On
 * completion every sink is flushed and shut down before the stream completes. An upstream error waits
 * until the values before it are written; then (as on a failed write) the sinks are aborted (`abort`,
 * else `shutdown`) without a flush and the original error is passed on. Unsubscribing early shuts
 * them down in the background. When the source is a `PullSource`, so is the result, and the next
 * value is pulled only after every sink wrote the current one: a slow sink slows the whole road down
 * to the source.
 *
 * @example
 * scored$.pipe(writeToSinks([toRunBundle('out'), toDuckDB('runs.duckdb')])).subscribe();
 */
export function writeToSinks<T>(sinks: readonly Sink<T>[]): MonoTypeOperatorFunction<T> {
  return (source) => {
    if (source instanceof PullSource) {
      const values = source as PullSource<T>;
      return new PullSource(() => writePulled(values, sinks));
    }
    return defer(() => {
      let closed = false;
      const close = async (): Promise<void> => {
        closed = true;
        await flushAndShutdown(sinks);
      };
      // An upstream error waits until the values before it are written.
      let upstreamError: { error: unknown } | null = null;
      const held = source.pipe(
        catchError((error: unknown) => {
          upstreamError = { error };
          return EMPTY;
        }),
      );
      // with no sink there is nothing to wait for: values pass straight through
      const written =
        sinks.length === 0
          ? held
          : held.pipe(
              concatMap(async (value) => {
                await Promise.all(sinks.map((s) => s.write(value)));
                return value;
              }),
            );
      const rethrow = defer(() =>
        upstreamError === null ? EMPTY : throwError(() => (upstreamError as { error: unknown }).error),
      );
      return concat(written, rethrow, defer(() => close()).pipe(ignoreElements())).pipe(
        catchError((error: unknown) =>
          defer(async () => {
            if (!closed) {
              closed = true;
              await abortAll(sinks, error);
            }
            throw error;
          }),
        ),
        finalize(() => {
          if (!closed) {
            closed = true;
            void shutdownAll(sinks);
          }
        }),
      );
    });
  };
}

/** The pull side of `writeToSinks`: same order, flush and shutdown rules, one value at a time. */
async function* writePulled<T>(source: AsyncIterable<T>, sinks: readonly Sink<T>[]): AsyncGenerator<T> {
  let closed = false;
  try {
    for await (const value of source) {
      await Promise.all(sinks.map((s) => s.write(value)));
      yield value;
    }
    closed = true;
    await flushAndShutdown(sinks);
  } catch (error) {
    if (!closed) {
      closed = true;
      await abortAll(sinks, error);
    }
    throw error;
  } finally {
    // the consumer stopped early
    if (!closed) void shutdownAll(sinks);
  }
}

async function flushAndShutdown<T>(sinks: readonly Sink<T>[]): Promise<void> {
  await Promise.all(sinks.map((s) => s.flush()));
  await Promise.all(sinks.map((s) => s.shutdown()));
}

async function shutdownAll<T>(sinks: readonly Sink<T>[]): Promise<void> {
  await Promise.allSettled(sinks.map((s) => s.shutdown()));
}

/** A failed run: each sink's `abort` (it keeps what a failed run must not replace), else `shutdown`. */
async function abortAll<T>(sinks: readonly Sink<T>[], error: unknown): Promise<void> {
  await Promise.allSettled(sinks.map((s) => (s.abort ? s.abort(error) : s.shutdown())));
}
