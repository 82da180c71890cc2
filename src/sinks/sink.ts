/**
 * The one small interface every sink implements (see STYLE.md §6). `shutdown` flushes, is safe to
 * call twice and without any `write`.
 */
export interface Sink<T> {
  write(item: T): Promise<void>;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}
