import type { Command } from 'commander';

/**
 * Every subcommand: its name and how to load it. Each command lives in `src/cli/commands/<name>.ts`
 * and exports `<name>Command(): Command`; add one line here per command. Modules are loaded on
 * demand, so a run loads only its own command's code (DuckDB, Arrow, gRPC and OpenTelemetry cost
 * about a second of start-up together).
 */
const COMMANDS: readonly (readonly [string, () => Promise<Command>])[] = [
  ['inspect', async () => (await import('./commands/inspect.js')).inspectCommand()],
  ['summarize', async () => (await import('./commands/summarize.js')).summarizeCommand()],
  ['report', async () => (await import('./commands/report.js')).reportCommand()],
  ['serve', async () => (await import('./commands/serve.js')).serveCommand()],
  ['query', async () => (await import('./commands/query.js')).queryCommand()],
  ['export', async () => (await import('./commands/export.js')).exportCommand()],
  ['score', async () => (await import('./commands/score.js')).scoreCommand()],
  ['init', async () => (await import('./commands/init.js')).initCommand()],
  ['gym', async () => (await import('./commands/gym.js')).gymCommand()],
  ['compare', async () => (await import('./commands/compare.js')).compareCommand()],
  ['merge', async () => (await import('./commands/merge.js')).mergeCommand()],
];

/**
 * Adds the subcommands to the program: only the one `argv` names when it names one (its first
 * argument), else all of them (for `--help`, `help`, a mistyped name and its suggestion).
 *
 * @example
 * await registerCommands(program, ['gym', 'aggregate', '-i', 'r.jsonl', '-o', 'm.jsonl']); // loads gym only
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const named = COMMANDS.find(([name]) => name === argv[0]);
  const chosen = named === undefined ? COMMANDS : [named];
  for (const command of await Promise.all(chosen.map(([, load]) => load()))) program.addCommand(command);
  // Usage errors in any subcommand (and its subcommands) return exit 2 through `main`, never exit the process.
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
}
