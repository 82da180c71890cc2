/**
 * `items.map(fn)` for an async `fn`, with at most `limit` calls pending at once; the results keep the
 * items' order. Rejects with the first rejection (the calls already started still settle).
 *
 * @example
 * const formats = await mapInOrder(files, 16, detectFormat);
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}
