/**
 * Worker-thread entry of `LiveRunThread`: owns the live run (`openLiveRun`: the engine, its grouper,
 * scoring stage, live state and sinks) so that decoding, assembly, scoring and the summary never
 * hold up the thread that receives and answers exports. The protocol is `live-run-messages.ts`.
 */
import { parentPort } from 'node:worker_threads';
import { ConfigError } from '../config/config-error.js';
import { decodingBodyHandler } from './decoding-body-handler.js';
import type { LiveRunReply, LiveRunRequest } from './live-run-messages.js';
import { openLiveRun, type LiveRun, type LiveRunOptions } from './open-live-run.js';
import type { BodyHandler } from './serve-types.js';

const port = parentPort!;
const post = (reply: LiveRunReply): void => port.postMessage(reply);
let run: LiveRun | null = null;
let bodies: BodyHandler | null = null;
let unsubscribe: (() => void) | null = null;

port.on('message', (message: LiveRunRequest) => {
  if (message.type === 'open') {
    void open(message.options);
    return;
  }
  const engine = run!.engine;
  switch (message.type) {
    case 'body': {
      const { body } = message;
      const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      answer(message.id, () => bodies!.acceptBody(buffer, message.encoding, message.signal));
      return;
    }
    case 'wait':
      answer(message.id, () => engine.waitForCapacity(message.timeoutMs).then(() => null));
      return;
    case 'throttled':
      engine.metrics.exportsThrottled += 1;
      return;
    case 'read':
      answer(message.id, () => {
        if (message.what === 'trial') return engine.trialJson(message.trialId);
        if (message.what === 'metrics') return engine.metricsText();
        if (message.what === 'problem') return engine.problem();
        return JSON.stringify(engine.summaryJson({ omitTaskValues: message.what === 'summary-light' }));
      });
      return;
    case 'events':
      unsubscribe?.();
      unsubscribe = message.on ? engine.onEvent((event) => post({ type: 'event', event })) : null;
      return;
    case 'finish':
      answer(message.id, () => run!.finish());
  }
});

async function open(options: LiveRunOptions): Promise<void> {
  try {
    run = await openLiveRun(
      options,
      (message) => post({ type: 'warning', message }),
      (message) => post({ type: 'problem', message }),
      (saturated) => post({ type: 'capacity', saturated }),
    );
    bodies = decodingBodyHandler(run.engine);
    run.engine.start();
    post({ type: 'opened', runId: run.runId });
  } catch (error) {
    post({
      type: 'open-failed',
      message: messageOf(error),
      config: error instanceof ConfigError ? { file: error.file, problems: [...error.problems] } : null,
    });
  }
}

function answer(id: number, read: () => unknown): void {
  Promise.resolve()
    .then(read)
    .then(
      (value) => post({ type: 'answer', id, value }),
      (error: unknown) => post({ type: 'failed', id, message: messageOf(error) }),
    );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
