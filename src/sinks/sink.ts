/**
 * The one small interface every sink implements (see STYLE.md §6). `shutdown` flushes, is safe to
 * call twice and without any `write`.
 */
export interface Sink<T> {
  write(item: T): Promise<void>;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
  /**
   * Ends a run that failed (called instead of `shutdown`): a sink that can tell a failed run's output
   * from a good one's keeps what the failure must not replace. Without it, `shutdown` is called.
   */
  abort?(error: unknown): Promise<void>;
}
