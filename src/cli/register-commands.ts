import type { Command } from 'commander';
import { summarizeCommand } from './commands/summarize.js';
import { inspectCommand } from './commands/inspect.js';

/**
 * Adds every subcommand to the program. Each command lives in `src/cli/commands/<name>.ts` and
 * exports `<name>Command(): Command`; add one line here per command.
 */
export function registerCommands(program: Command): void {
  program.addCommand(inspectCommand());
  program.addCommand(summarizeCommand());
  void program;
}
