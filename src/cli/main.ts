import { Command, CommanderError } from 'commander';
import { evalstreamVersion } from '../bundle/evalstream-version.js';
import { CliError, EXIT_BAD_INPUT } from './cli-error.js';
import { registerCommands } from './register-commands.js';

/**
 * Runs the `evalstream` CLI and resolves to its exit code (never calls `process.exit`).
 *
 * @example
 * process.exitCode = await main(['summarize', 'examples/sparse-run']);
 */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('evalstream')
    .description('score AI-agent trials from trace evidence and aggregate the scores')
    .version(evalstreamVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  await registerCommands(program, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (error instanceof CliError) {
      process.stderr.write(`evalstream: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`evalstream: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
