import type { ErrorWire, OtlpPayloadWire } from './worker-messages.js';

/**
 * One piece of a run's input that a scoring worker reads on its own: a slice of the ATIF files (with
 * the trial-id counts the files before it left, so repeated trajectory ids number on as in one
 * pass), a slice of a Harbor job's trial directories (`names`; null: the whole directory), a whole
 * run bundle, all the Gym rollout files (their duplicate check spans every file), or a run of
 * consecutive OTLP payloads (`otlp-frames`: see `scoreInWorkers` for trials near its edges).
 */
export type WorkChunk =
  | { kind: 'atif'; files: string[]; trialIdCounts: [string, number][] }
  | { kind: 'harbor'; dir: string; names: string[] | null }
  | { kind: 'bundle'; dir: string }
  | { kind: 'gym'; files: string[] }
  | {
      kind: 'otlp-frames';
      /** Consecutive OTLP payloads; protobuf bodies are ranges of `bytes`. */
      payloads: OtlpPayloadWire[];
      bytes: ArrayBuffer;
      /** The last chunk of the OTLP files: the trials still open at its end are emitted then. */
      flush: boolean;
      /** What ended the reading after these payloads (a cut-off file): raised after their trials. */
      error: ErrorWire | null;
    };
