import type { Command } from 'commander';

/**
 * Adds every subcommand to the program. Each command lives in `src/cli/commands/<name>.ts` and
 * exports `<name>Command(): Command`; add one line here per command.
 */
export function registerCommands(program: Command): void {
  void program;
}
