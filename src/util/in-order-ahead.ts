/**
 * `fn` over `items` as an async generator of its results in the items' order, with up to `ahead`
 * calls started before their result is asked for, so that their I/O overlaps what the consumer does
 * with the results before them. A rejection surfaces at its item's turn, after the results before
 * it; calls already started when the consumer stops settle unobserved.
 *
 * @example
 * for await (const text of inOrderAhead(files, 8, (f) => readFile(f, 'utf8'))) console.log(text.length);
 */
export async function* inOrderAhead<T, R>(
  items: readonly T[],
  ahead: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const started: Promise<R>[] = [];
  let next = 0;
  const fill = (): void => {
    while (next < items.length && started.length < ahead) {
      const call = fn(items[next] as T);
      next += 1;
      // observed at its turn (below); this keeps an early rejection from counting as unhandled
      call.catch(() => undefined);
      started.push(call);
    }
  };
  fill();
  while (started.length > 0) {
    const result = await (started.shift() as Promise<R>);
    fill();
    yield result;
  }
}
