import type { OtlpFileLayout } from '../evidence/otlp/otlp-payload-splitter.js';
import { OtlpTrialGrouper, type OtlpGroupingConfig } from '../evidence/otlp/otlp-trial-grouper.js';
import { readOtlpPayloadBatches } from '../evidence/otlp/read-otlp-payload-batches.js';
import type { TrialItem } from '../model/trial-item.js';
import { decodeOtlpItem } from '../operators/decode-otlp.js';
import { PullSource } from '../pipeline/pull-source.js';
import { cutOffLastLine, InputError, skippedIssue } from './input-error.js';
import { OtlpDecodeError } from '../evidence/otlp/otlp-decode-error.js';
import { inFile } from '../evidence/otlp/decode-otlp-payload.js';

/** Options of `fromOtlpFiles`: the grouping rule plus how files are read. */
export interface FromOtlpFilesOptions extends OtlpGroupingConfig {
  /** Force a layout instead of deciding from each file's name and first bytes. */
  layout?: OtlpFileLayout;
  /** Read size in bytes (default 128 KiB). */
  chunkBytes?: number;
  /** Called after each request is read, with the file and its uncompressed bytes read so far. */
  onProgress?: (progress: { file: string; bytesRead: number }) => void;
  /**
   * Receives each payload that does not decode though its bounds are known (a bad JSON line, a
   * protobuf frame whose body is corrupt behind an intact length prefix), as an `InputError` naming
   * the file and the line or byte offset: the payload is skipped and reading goes on. Without it such
   * a payload ends the stream like any other bad input. At the end of the input it also receives,
   * per file, the count of log records that attached to no trial (no trace id, or no span of their
   * trace in the input).
   */
  onIssue?: (issue: InputError) => void;
}

/**
 * Trials from OTLP trace files: `.json` (one ExportTraceServiceRequest, or JSON lines under a `.json`
 * name), `.jsonl` (the Collector file exporter, one request per line), `.pb`/`.binpb` (one request,
 * or the Collector's 4-byte big-endian length-prefixed frames), each optionally gzip-compressed.
 * Log exports (`resourceLogs` lines, `ExportLogsServiceRequest` frames) may sit in the same files or
 * in files of their own: their records attach to the trial of their trace id.
 * Files are read lazily one after another, chunk by chunk, and only as fast as trials are taken (a
 * `PullSource`: memory stays bounded by the grouping window, not the file size), spans grouped into
 * trials across files (see `groupIntoTrials`).
 * A truncated or corrupt file emits every trial read before the problem, then errors with an
 * `InputError` naming the file and the byte offset or line; with `onIssue`, a bad payload whose
 * bounds are known is reported there and skipped instead (a cut-off file still ends the stream).
 *
 * @example
 * fromOtlpFiles(['traces/relay.jsonl']).subscribe((item) => console.log(item.trial.id, item.trial.output?.output_text));
 */
export function fromOtlpFiles(
  paths: readonly string[],
  options: FromOtlpFilesOptions = {},
): PullSource<TrialItem> {
  return new PullSource(() => readOtlpTrials(paths, options));
}

async function* readOtlpTrials(
  paths: readonly string[],
  options: FromOtlpFilesOptions,
): AsyncGenerator<TrialItem> {
  const readOptions = {
    ...(options.layout === undefined ? {} : { layout: options.layout }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  };
  const grouper = new OtlpTrialGrouper(options);
  try {
    for (const path of paths) {
      // one async step per chunk read (a batch of payloads), not one per payload
      for await (const batch of readOtlpPayloadBatches(path, readOptions)) {
        for (const payload of batch) {
          let request;
          try {
            request = decodeOtlpItem(payload);
          } catch (error) {
            if (options.onIssue === undefined || !(error instanceof InputError)) throw error;
            // a last line that does not parse and has no newline after it: the file was cut off
            if (payload.payload.kind === 'json' && payload.payload.unterminated === true)
              throw new InputError(cutOffLastLine(error.reason), {
                file: error.file,
                line: error.line,
                offset: error.offset,
                field: error.field,
              });
            options.onIssue(skippedIssue(error));
            continue;
          }
          options.onProgress?.({ file: request.file, bytesRead: request.bytesRead });
          let trials: TrialItem[];
          try {
            trials = grouper.push(request);
          } catch (error) {
            // a part decoded only when first read (attributes the trial keys are looked up in) is corrupt
            if (!(error instanceof OtlpDecodeError)) throw error;
            const at = inFile(error, payload.payload);
            const issue = new InputError(`${at.message}; the rest of this request skipped`, {
              file: payload.file,
              line: payload.payload.kind === 'json' ? payload.payload.line : null,
              offset: at.offset,
              field: at.field,
              diagnostic: 'skipped_payload',
            });
            if (options.onIssue === undefined) throw issue;
            options.onIssue(issue);
            continue;
          }
          yield* trials;
        }
      }
    }
  } catch (error) {
    // the trials still open were read before the problem: they are kept
    yield* grouper.flush();
    throw error;
  }
  yield* grouper.flush();
  if (options.onIssue === undefined) return;
  for (const c of grouper.invalidIdSpans()) {
    options.onIssue(
      new InputError(
        `${c.count} span(s) with an invalid trace or span id (empty, all zero, or not 16 / 8 bytes) ` +
          `left out of every trial (the first here, by its ${c.field})`,
        { ...c.first, field: c.field, diagnostic: 'invalid_id_spans' },
      ),
    );
  }
  for (const c of grouper.unattachedLogRecords()) {
    const n = c.withoutTraceId + c.withoutSpans;
    const parts = [
      ...(c.withoutTraceId === 0 ? [] : [`${c.withoutTraceId} without a valid trace id`]),
      ...(c.withoutSpans === 0 ? [] : [`${c.withoutSpans} whose trace had no spans in the input`]),
    ];
    options.onIssue(
      new InputError(`${n} log record(s) attached to no trial (${parts.join(', ')})`, {
        file: c.file,
        field: 'logRecords',
        diagnostic: 'unattached_log_records',
      }),
    );
  }
}
