import type { Sink } from '../../src/sinks/sink.js';

/** An in-memory sink for tests: records writes and lifecycle calls; can be told to fail. */
export class MemorySink<T> implements Sink<T> {
  readonly items: T[] = [];
  readonly calls: string[] = [];
  constructor(private readonly failOn: ((item: T) => boolean) | null = null) {}
  async write(item: T): Promise<void> {
    await new Promise((r) => setTimeout(r, 0));
    if (this.failOn?.(item)) throw new Error('disk full');
    this.items.push(item);
    this.calls.push('write');
  }
  async flush(): Promise<void> {
    this.calls.push('flush');
  }
  async shutdown(): Promise<void> {
    this.calls.push('shutdown');
  }
}
