import type { BundleReadError } from '../bundle/bundle-read-error.js';
/** Exit codes (README "Exit codes"), 0 being success. The run failed or is incomplete (e.g. a truncated input: results written but not trustworthy). */
export const EXIT_RUN_FAILED = 1;
/** Bad usage or bad input (malformed file, invalid config). */
export const EXIT_BAD_INPUT = 2;

/** An error the CLI prints as one message (no stack) and turns into an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_BAD_INPUT,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * The exit code of a bundle that cannot be read (README "Exit codes"), the same from every command:
 * a file whose last line is cut off is a truncated input, 1 (as `summarize` says of it); any other
 * problem (a malformed line, a byte that is not UTF-8, a missing file) is bad input, 2.
 *
 * @example
 * throw new CliError(error.message, bundleReadExitCode(error));
 */
export function bundleReadExitCode(error: BundleReadError): number {
  return error.issues.length > 0 && error.issues.every((issue) => issue.code === 'truncated_line')
    ? EXIT_RUN_FAILED
    : EXIT_BAD_INPUT;
}
