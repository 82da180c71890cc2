import { Command, Help } from 'commander';

/**
 * Every subcommand: its name, how `evalstream --help` lists it (usage term and description), and how
 * to load it. Each command lives in `src/cli/commands/<name>.ts` and exports `<name>Command(): Command`;
 * add one row here per command. Modules are loaded on demand, so a run loads only its own command's
 * code (DuckDB, Arrow, gRPC and OpenTelemetry cost about a second of start-up together), and the
 * listing lets `--help` show every command without loading any. The imports are literal so that the
 * bundler (`scripts/build-cli.mjs`) splits each command into its own chunks.
 * `test/cli/register-commands.test.ts` checks each listing against the command's own help.
 */
const COMMANDS: readonly (readonly [
  name: string,
  term: string,
  description: string,
  load: () => Promise<Command>,
])[] = [
  [
    'score',
    'score [options] <inputs...>',
    'score trials from their trace evidence and write a run bundle',
    () => import('./commands/score.js').then((m) => m.scoreCommand()),
  ],
  [
    'summarize',
    'summarize [options] <bundle-dir>',
    'recompute summary.json of a run bundle and write the bundle (in place or to --out)',
    () => import('./commands/summarize.js').then((m) => m.summarizeCommand()),
  ],
  [
    'inspect',
    'inspect [options] <inputs...>',
    'show, per trial, what evalstream reads from the inputs: ids, spans, tool calls, tokens, final text',
    () => import('./commands/inspect.js').then((m) => m.inspectCommand()),
  ],
  [
    'query',
    'query [options] <sql>',
    'run SQL over an evalstream DuckDB store (read-only unless --write)',
    () => import('./commands/query.js').then((m) => m.queryCommand()),
  ],
  [
    'export',
    'export [options]',
    'export every table of an evalstream DuckDB store to Parquet (by run) and/or Arrow IPC',
    () => import('./commands/export.js').then((m) => m.exportCommand()),
  ],
  [
    'serve',
    'serve [options]',
    'receive OTLP traces (HTTP + gRPC), score trials as they finish, keep live aggregates',
    () => import('./commands/serve.js').then((m) => m.serveCommand()),
  ],
  [
    'report',
    'report [options] <bundle-dir>',
    'rebuild the self-contained report.html of a run bundle',
    () => import('./commands/report.js').then((m) => m.reportCommand()),
  ],
  [
    'compare',
    'compare [options] <runA> <runB>',
    'compare two runs output by output: paired differences, intervals, tests and a verdict',
    () => import('./commands/compare.js').then((m) => m.compareCommand()),
  ],
  [
    'merge',
    'merge [options] <shards...>',
    'merge runs scored in shards (disjoint trials of one run) into one bundle: bundles, or Parquet exports and DuckDB stores',
    () => import('./commands/merge.js').then((m) => m.mergeCommand()),
  ],
  [
    'gym',
    'gym',
    'NeMo Gym aggregate metrics and reward profiles, with Gym’s numbers',
    () => import('./commands/gym.js').then((m) => m.gymCommand()),
  ],
  [
    'init',
    'init [options]',
    'write a commented starter evalstream.config.mjs',
    () => import('./commands/init.js').then((m) => m.initCommand()),
  ],
];

/**
 * Adds the subcommands to the program: only the one `argv` names (its first operand, or the one
 * after `help`), else every command as its listing (for `--help`, `--version`, no command, a
 * mistyped name and its suggestion), which loads none of them.
 *
 * @example
 * await registerCommands(program, ['gym', 'aggregate', '-i', 'r.jsonl', '-o', 'm.jsonl']); // loads gym only
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const first = argv.findIndex((arg) => !arg.startsWith('-'));
  const wanted = argv[first] === 'help' ? argv[first + 1] : argv[first];
  const load = COMMANDS.find(([name]) => name === wanted)?.[3];
  if (load !== undefined) {
    program.addCommand(await load());
  } else {
    const terms = new Map<Command, string>();
    for (const [name, term, description] of COMMANDS) {
      const command = new Command(name).description(description);
      terms.set(command, term);
      program.addCommand(command);
    }
    const help = new Help();
    program.configureHelp({
      subcommandTerm: (command) => terms.get(command) ?? help.subcommandTerm(command),
    });
  }
  // Usage errors in any subcommand (and its subcommands) return exit 2 through `main`, never exit the process.
  const override = (command: Command): void => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
}
