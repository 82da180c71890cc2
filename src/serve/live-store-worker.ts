/**
 * Worker-thread entry of `LiveDuckDBStore`: owns the DuckDB connection (a `LiveStoreWriter`) so
 * appends and commits never block the receiving thread. Messages in: `{type: 'open', path, runId,
 * threads}`, `{type: 'batch', seq, trials}`, `{type: 'close'}`; out: `{type: 'opened'}`,
 * `{type: 'done', seq}`, `{type: 'closed'}`, `{type: 'error', seq, message}`.
 */
import { parentPort } from 'node:worker_threads';
import { LiveStoreWriter, type StoreTrialMessage } from './live-store-writer.js';

type Incoming =
  | { type: 'open'; path: string; runId: string; threads?: number }
  | { type: 'batch'; seq: number; trials: (StoreTrialMessage | null)[] }
  | { type: 'close' };

const port = parentPort!;
let writer: LiveStoreWriter | null = null;
let tail: Promise<void> = Promise.resolve();

port.on('message', (message: Incoming) => {
  tail = tail.then(async () => {
    const seq = message.type === 'batch' ? message.seq : -1;
    try {
      if (message.type === 'open') {
        writer = await LiveStoreWriter.open(
          message.path,
          message.runId,
          message.threads === undefined ? {} : { threads: message.threads },
        );
        port.postMessage({ type: 'opened' });
      } else if (message.type === 'batch') {
        await writer!.writeBatch(message.trials);
        port.postMessage({ type: 'done', seq });
      } else {
        writer?.close();
        writer = null;
        port.postMessage({ type: 'closed' });
      }
    } catch (error) {
      port.postMessage({ type: 'error', seq, message: (error as Error).message ?? String(error) });
    }
  });
});
