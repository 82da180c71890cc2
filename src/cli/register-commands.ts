import type { Command } from 'commander';
import { summarizeCommand } from './commands/summarize.js';
import { inspectCommand } from './commands/inspect.js';
import { reportCommand } from './commands/report.js';
import { serveCommand } from './commands/serve.js';
import { queryCommand } from './commands/query.js';
import { exportCommand } from './commands/export.js';
import { scoreCommand } from './commands/score.js';
import { initCommand } from './commands/init.js';
import { gymCommand } from './commands/gym.js';

/**
 * Adds every subcommand to the program. Each command lives in `src/cli/commands/<name>.ts` and
 * exports `<name>Command(): Command`; add one line here per command.
 */
export function registerCommands(program: Command): void {
  program.addCommand(inspectCommand());
  program.addCommand(summarizeCommand());
  program.addCommand(reportCommand());
  program.addCommand(serveCommand());
  program.addCommand(queryCommand());
  program.addCommand(exportCommand());
  program.addCommand(scoreCommand());
  program.addCommand(initCommand());
  program.addCommand(gymCommand());
  // Usage errors in any subcommand (and its subcommands) return exit 2 through `main`, never exit the process.
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
}
