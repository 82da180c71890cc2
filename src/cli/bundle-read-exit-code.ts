import type { BundleReadError } from '../bundle/bundle-read-error.js';
import { EXIT_BAD_INPUT, EXIT_RUN_FAILED } from './cli-error.js';

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
