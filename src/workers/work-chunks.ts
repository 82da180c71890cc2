import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listHarborEntries } from '../sources/list-harbor-entries.js';
import type { InputPlan } from '../sources/plan-inputs.js';
import type { OtlpPayloadItem } from '../evidence/otlp/otlp-stream-types.js';
import { OtlpTrialGrouper } from '../evidence/otlp/otlp-trial-grouper.js';
import { readOtlpPayloadBatches } from '../evidence/otlp/read-otlp-payload-batches.js';
import { errorToWire } from './error-to-wire.js';
import type { WorkChunk } from './work-chunk.js';
import type { ErrorWire, OtlpPayloadWire } from './worker-messages.js';

/** ATIF files read by one worker at a time. */
const ATIF_FILES_PER_CHUNK = 32;
/** Harbor trial directories read by one worker at a time. */
const HARBOR_TRIALS_PER_CHUNK = 16;
/** OTLP payload bytes per chunk by default (at least `windowRequests` payloads, at most `OTLP_CHUNK_PAYLOADS`). */
const OTLP_CHUNK_BYTES = 4 << 20;
const OTLP_CHUNK_PAYLOADS = 8192;

/**
 * The chunks of a run's inputs in reading order, listed lazily: ATIF files and Harbor trial
 * directories in slices (each trial stands alone), a bundle and the Gym files whole, the payloads of
 * the OTLP files (read and cut here, decoded by the workers) in runs of about `otlpChunkBytes`.
 * An OTLP chunk is handed out only once `windowRequests` more payloads were read after it, so the
 * last chunk always has that many (see `scoreInWorkers`).
 *
 * @example
 * for await (const chunk of workChunks(await planInputs(inputs, 'auto'))) dispatch(chunk);
 */
export async function* workChunks(
  plans: readonly InputPlan[],
  otlpChunkBytes = OTLP_CHUNK_BYTES,
): AsyncGenerator<WorkChunk> {
  for (const plan of plans) {
    switch (plan.kind) {
      case 'atif':
        for (let i = 0; i < plan.files.length; i += ATIF_FILES_PER_CHUNK) {
          yield { kind: 'atif', files: plan.files.slice(i, i + ATIF_FILES_PER_CHUNK), trialIdCounts: [] };
        }
        break;
      case 'harbor': {
        if (await isOneTrial(plan.dir)) {
          yield { kind: 'harbor', dir: plan.dir, names: null };
          break;
        }
        const names = await listHarborEntries(plan.dir);
        for (let i = 0; i < names.length; i += HARBOR_TRIALS_PER_CHUNK) {
          yield { kind: 'harbor', dir: plan.dir, names: names.slice(i, i + HARBOR_TRIALS_PER_CHUNK) };
        }
        break;
      }
      case 'bundle':
        yield { kind: 'bundle', dir: plan.dir };
        break;
      case 'gym':
        yield { kind: 'gym', files: plan.files };
        break;
      case 'otlp':
        yield* otlpChunks(plan.files, otlpChunkBytes);
        break;
    }
  }
}

async function* otlpChunks(files: readonly string[], chunkBytes: number): AsyncGenerator<WorkChunk> {
  const window = OtlpTrialGrouper.defaultWindowRequests;
  let pending: OtlpPayloadItem[] = [];
  let bytes = 0;
  let cut: number | null = null;
  try {
    for (const file of files) {
      for await (const batch of readOtlpPayloadBatches(file)) {
        for (const item of batch) {
          pending.push(item);
          bytes += item.payload.kind === 'json' ? item.payload.text.length : item.payload.bytes.length;
          if (
            cut === null &&
            pending.length >= window &&
            (bytes >= chunkBytes || pending.length >= OTLP_CHUNK_PAYLOADS)
          ) {
            cut = pending.length;
          }
          if (cut !== null && pending.length >= cut + window) {
            yield otlpFrames(pending.slice(0, cut), false, null);
            pending = pending.slice(cut);
            bytes = 0;
            cut = null;
          }
        }
      }
    }
  } catch (error) {
    yield otlpFrames(pending, true, errorToWire(error));
    return;
  }
  if (pending.length > 0) yield otlpFrames(pending, true, null);
}

/** An `otlp-frames` chunk of these payloads, protobuf bodies copied into one buffer. */
function otlpFrames(items: readonly OtlpPayloadItem[], flush: boolean, error: ErrorWire | null): WorkChunk {
  let size = 0;
  for (const { payload } of items) if (payload.kind === 'protobuf') size += payload.bytes.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  const payloads = items.map(({ file, payload }): OtlpPayloadWire => {
    if (payload.kind === 'json') return { file, ...payload };
    bytes.set(payload.bytes, at);
    at += payload.bytes.length;
    return {
      file,
      kind: 'protobuf',
      start: at - payload.bytes.length,
      end: at,
      offset: payload.offset,
      bodyOffset: payload.bodyOffset,
    };
  });
  return { kind: 'otlp-frames', payloads, bytes: bytes.buffer, flush, error };
}

/**
 * Whether `fromHarborJob` reads `dir` as one trial directory, or cannot be sure before reading (a
 * `result.json` that does not parse): then one worker reads it whole, as one pass would.
 */
async function isOneTrial(dir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(dir, 'result.json'), 'utf8');
  } catch {
    return false;
  }
  try {
    const raw = JSON.parse(text) as unknown;
    return raw === null || typeof raw !== 'object' || 'trial_name' in raw;
  } catch {
    return true;
  }
}
