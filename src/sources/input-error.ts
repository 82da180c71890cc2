import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';

/**
 * What a problem a source reported and went on past is, as a row of `diagnostics.jsonl`: from files
 * `skipped_payload` (an OTLP payload), `skipped_file` (a trial's file: an ATIF trajectory, a Harbor
 * `result.json`), `unattached_log_records` or `invalid_id_spans`; from a bundle, what its row says.
 */
export type InputDiagnosticCode = TrialDiagnosticRow['code'];

/**
 * An input file that cannot be read to its end: truncated, corrupt, not the format it claims. Names
 * the file and, when known, the 1-based line or the byte offset (in the uncompressed stream) and the
 * field. Sources emit every trial read before the problem, then fail with this error; the CLI turns
 * it into exit code 1 ("incomplete": the results written are valid but do not cover the input).
 *
 * @example
 * throw new InputError('truncated frame', { file: 'dump.binpb', offset: 1048576 });
 * // message: "dump.binpb: byte 1048576: truncated frame"
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  /** Always `input_error`, for errors-as-data consumers. */
  readonly code = 'input_error';
  readonly file: string;
  readonly line: number | null;
  readonly offset: number | null;
  readonly field: string | null;
  /** The problem without the file and place (`message` has them). */
  readonly reason: string;
  /**
   * Set on a problem a source can go on past (given `onIssue`): what it is as a run's input
   * diagnostic. Null on an error that ends the input whatever the options.
   */
  readonly diagnostic: InputDiagnosticCode | null;
  /** Results produced before the error stand; the run just does not cover the whole input. */
  readonly incomplete = true;

  constructor(
    reason: string,
    where: {
      file: string;
      line?: number | null;
      offset?: number | null;
      field?: string | null;
      diagnostic?: InputDiagnosticCode | null;
    },
  ) {
    const at =
      where.line !== undefined && where.line !== null
        ? `line ${where.line}`
        : where.offset !== undefined && where.offset !== null
          ? `byte ${where.offset}`
          : null;
    super(`${where.file}: ${at === null ? '' : `${at}: `}${reason}`);
    this.file = where.file;
    this.line = where.line ?? null;
    this.offset = where.offset ?? null;
    this.field = where.field ?? null;
    this.reason = reason;
    this.diagnostic = where.diagnostic ?? null;
  }
}

/**
 * `issue` as reported to `onIssue` when the source goes on past it: the same place, the reason
 * ending in `; skipped`.
 *
 * @example
 * options.onIssue(skippedIssue(error)); // "runs/b.json: not valid JSON: …; skipped"
 */
export function skippedIssue(issue: InputError): InputError {
  return new InputError(`${issue.reason}; skipped`, {
    file: issue.file,
    line: issue.line,
    offset: issue.offset,
    field: issue.field,
    diagnostic: issue.diagnostic ?? 'skipped_payload',
  });
}

/**
 * `reason` said of a file's last line that does not parse and has no newline after it: the file was
 * cut off (an input error that ends the run, not a bad line to skip).
 *
 * @example
 * cutOffLastLine('not valid JSON: Unexpected end of JSON input');
 */
export function cutOffLastLine(reason: string): string {
  return `${reason} (the last line, with no newline: the file is cut off)`;
}
