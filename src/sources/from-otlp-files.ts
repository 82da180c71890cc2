import { concat, concatMap, defer, from, tap, type Observable } from 'rxjs';
import type { OtlpFileLayout } from '../evidence/otlp/otlp-payload-splitter.js';
import type { OtlpGroupingConfig } from '../evidence/otlp/otlp-trial-grouper.js';
import { readOtlpPayloadBatches } from '../evidence/otlp/read-otlp-payload-batches.js';
import type { TrialItem } from '../model/trial-item.js';
import { decodeOtlp } from '../operators/decode-otlp.js';
import { groupIntoTrials } from '../operators/group-into-trials.js';

/** Options of `fromOtlpFiles`: the grouping rule plus how files are read. */
export interface FromOtlpFilesOptions extends OtlpGroupingConfig {
  /** Force a layout instead of deciding from each file's name and first bytes. */
  layout?: OtlpFileLayout;
  /** Read size in bytes (default 1 MiB). */
  chunkBytes?: number;
  /** Called after each request is read, with the file and its uncompressed bytes read so far. */
  onProgress?: (progress: { file: string; bytesRead: number }) => void;
}

/**
 * Trials from OTLP trace files: `.json` (one ExportTraceServiceRequest, or JSON lines under a `.json`
 * name), `.jsonl` (the Collector file exporter, one request per line), `.pb`/`.binpb` (one request,
 * or the Collector's 4-byte big-endian length-prefixed frames), each optionally gzip-compressed.
 * Files are read lazily one after another, chunk by chunk (memory stays bounded by the grouping
 * window, not the file size), spans grouped into trials across files (see `groupIntoTrials`).
 * A truncated or corrupt file emits every trial read before the problem, then errors with an
 * `InputError` naming the file and the byte offset or line.
 *
 * @example
 * fromOtlpFiles(['traces/relay.jsonl']).subscribe((item) => console.log(item.trial.id, item.trial.output?.output_text));
 */
export function fromOtlpFiles(
  paths: readonly string[],
  options: FromOtlpFilesOptions = {},
): Observable<TrialItem> {
  const readOptions = {
    ...(options.layout === undefined ? {} : { layout: options.layout }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  };
  // one async step per chunk read (a batch of payloads), not one per payload
  const payloads = concat(
    ...paths.map((path) => defer(() => from(readOtlpPayloadBatches(path, readOptions)))),
  ).pipe(concatMap((batch) => batch));
  return payloads.pipe(
    decodeOtlp(),
    tap((r) => options.onProgress?.({ file: r.file, bytesRead: r.bytesRead })),
    groupIntoTrials(options),
  );
}
