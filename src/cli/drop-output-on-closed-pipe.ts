/**
 * Makes a reader that stops early (`evalstream inspect … | head`) harmless: when `stream` (stdout)
 * fails with EPIPE, the rest of the output is dropped and the command goes on to finish its work
 * (a run still writes its bundle and exits with its own code) instead of dying on an unhandled
 * 'error' event with a stack trace. Any other write error is thrown as before.
 *
 * @example
 * dropOutputOnClosedPipe(process.stdout);
 */
export function dropOutputOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stream.write = (() => true) as typeof stream.write;
  });
}
