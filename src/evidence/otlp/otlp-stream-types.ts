import type { OtlpPayload } from './otlp-payload-splitter.js';
import type { OtlpExportRequest } from './otlp-types.js';

/** One encoded request read from an OTLP file, with where it came from. */
export interface OtlpPayloadItem {
  readonly file: string;
  readonly payload: OtlpPayload;
  /** Uncompressed bytes of the file read so far (for progress). */
  readonly bytesRead: number;
}

/** One decoded request flowing from `decodeOtlp` to `groupIntoTrials`. */
export interface OtlpRequestItem {
  readonly file: string;
  readonly request: OtlpExportRequest;
  /** Byte offset of the request in the uncompressed file. */
  readonly offset: number;
  /** 1-based line for JSON inputs, else null. */
  readonly line: number | null;
  readonly bytesRead: number;
}
