/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument
 * on the stack and throws "Maximum call stack size exceeded" past ~125,000 items, which input can
 * reach (trials of one task, spans of one scope, rows of one batch).
 *
 * @example
 * const all: number[] = [1];
 * appendAll(all, [2, 3]); // all is [1, 2, 3]
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
