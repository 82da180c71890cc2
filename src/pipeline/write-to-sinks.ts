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

/**
 * The pipeline's one fan-out point: each value is written to every sink (in parallel across sinks,
 * one value at a time, so each sink sees input order) and re-emitted once all writes resolved. On
 * completion every sink is flushed and shut down before the stream completes. An upstream error waits
 * until the values before it are written; then (as on a failed write) the sinks are aborted (`abort`,
 * else `shutdown`) without a flush and the original error is passed on. Unsubscribing early shuts them down in the background.
 *
 * @example
 * scored$.pipe(writeToSinks([toRunBundle('out'), toDuckDB('runs.duckdb')])).subscribe();
 */
export function writeToSinks<T>(sinks: readonly Sink<T>[]): MonoTypeOperatorFunction<T> {
  return (source) =>
    defer(() => {
      let closed = false;
      const close = async (): Promise<void> => {
        closed = true;
        await Promise.all(sinks.map((s) => s.flush()));
        await Promise.all(sinks.map((s) => s.shutdown()));
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
              await Promise.allSettled(sinks.map((s) => (s.abort ? s.abort(error) : s.shutdown())));
            }
            throw error;
          }),
        ),
        finalize(() => {
          if (!closed) {
            closed = true;
            void Promise.allSettled(sinks.map((s) => s.shutdown()));
          }
        }),
      );
    });
}
