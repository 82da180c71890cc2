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
