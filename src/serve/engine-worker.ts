/**
 * Worker-thread entry of {@link EngineThread}: owns the live run (engine, store, bundle) so that
 * decoding, assembly, scoring, the live state and their garbage stay off the thread that answers
 * exports. `workerData.options` is a `LiveRunOptions`. Messages in and out: see `engine-thread.ts`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ConfigError } from '../config/config-error.js';
import { decodingBodyHandler } from './decoding-body-handler.js';
import { decodeExportRequest } from './decode-export-request.js';
import { openLiveRun, type LiveRun, type LiveRunOptions } from './open-live-run.js';
import type { EngineThreadRequest } from './engine-thread.js';

const port = parentPort!;
let run: LiveRun;
try {
  run = await openLiveRun(
    (workerData as { options: LiveRunOptions }).options,
    (m) => process.stderr.write(`evalstream: warning: ${m}\n`),
    (m) => process.stderr.write(`evalstream serve: error: ${m}\n`),
  );
} catch (error) {
  port.postMessage({
    t: 'failed',
    message: (error as Error).message,
    badInput: error instanceof ConfigError,
  });
  process.exit(1); // ends this thread only
}
const engine = run.engine;
const bodies = decodingBodyHandler(engine, decodeExportRequest);
let unsubscribe: (() => void) | null = null;
/** Whether a watcher waits for room to tell the receiving thread (after a saturated answer). */
let watching = false;

/** The state the receiving thread mirrors, sent with every answer. */
function state(): { saturated: boolean; failure: string | null } {
  return { saturated: engine.isSaturated(), failure: engine.problem() };
}

function reply(id: number, value: unknown): void {
  const s = state();
  port.postMessage({ t: 'reply', id, value, ...s });
  if (s.saturated && !watching) {
    watching = true;
    void engine.whenRoom(60_000).then(() => {
      watching = false;
      port.postMessage({ t: 'state', ...state() });
    });
  }
}

port.on('message', (message: EngineThreadRequest) => {
  switch (message.t) {
    case 'accept': {
      const body = Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength);
      // The receiving thread let this body in on a mirrored state that can be a few messages old:
      // the queues may have filled since. The body is read and here already, so it waits for room
      // as it would have before being read, instead of being refused (and sent again) at once.
      if (message.waitMs > 0 && engine.isSaturated()) {
        const { id, encoding, waitMs, signal } = message;
        void engine
          .waitForCapacity(waitMs)
          .then(() => reply(id, bodies.acceptBody(body, encoding, 0, signal)));
      } else reply(message.id, bodies.acceptBody(body, message.encoding, 0, message.signal));
      break;
    }
    case 'summary':
      reply(message.id, JSON.stringify(engine.summaryJson({ omitTaskValues: message.omitTaskValues })));
      break;
    case 'trial':
      reply(message.id, engine.trialJson(message.trialId));
      break;
    case 'metrics':
      reply(message.id, engine.metricsText());
      break;
    case 'events':
      if (message.on && unsubscribe === null)
        unsubscribe = engine.onEvent((event) => port.postMessage({ t: 'event', event }));
      else if (!message.on && unsubscribe !== null) {
        unsubscribe();
        unsubscribe = null;
      }
      break;
    case 'throttled':
      // a refusal the receiving thread answered from its mirror: counted like the engine's own
      engine.metrics.exportsThrottled += 1;
      break;
    case 'wait':
      void engine.waitForCapacity(message.timeoutMs).then(() => port.postMessage({ t: 'room', ...state() }));
      break;
    case 'finish':
      run.finish().then(
        (end) => {
          port.postMessage({ t: 'reply', id: message.id, value: end, ...state() });
          port.close();
        },
        (error: unknown) => {
          port.postMessage({ t: 'reply', id: message.id, error: (error as Error).message, ...state() });
          port.close();
        },
      );
      break;
  }
});
engine.start();
port.postMessage({ t: 'ready', runId: run.runId });
