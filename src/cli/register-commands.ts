import { Command, Help } from 'commander';

/** How a command is listed in `evalstream --help` (its usage term and description), without loading it. */
export interface CommandListing {
  term: string;
  description: string;
}

/**
 * Every subcommand: its name, how to load it, and how `evalstream --help` lists it. Each command
 * lives in `src/cli/commands/<name>.ts` and exports `<name>Command(): Command`; add one line here
 * per command. Modules are loaded on demand, so a run loads only its own command's code (DuckDB,
 * Arrow, gRPC and OpenTelemetry cost about a second of start-up together), and the listing lets
 * `--help` show every command without loading any (a command without one is loaded for the help).
 * `test/cli/register-commands.test.ts` checks each listing against the command's own help.
 */
const COMMANDS: readonly (readonly [string, () => Promise<Command>, CommandListing?])[] = [
  [
    'inspect',
    async () => (await import('./commands/inspect.js')).inspectCommand(),
    {
      term: 'inspect [options] <inputs...>',
      description:
        'show, per trial, what evalstream reads from the inputs: ids, spans, tool calls, tokens, final text',
    },
  ],
  [
    'summarize',
    async () => (await import('./commands/summarize.js')).summarizeCommand(),
    {
      term: 'summarize [options] <bundle-dir>',
      description: 'recompute summary.json of a run bundle and write the bundle (in place or to --out)',
    },
  ],
  [
    'report',
    async () => (await import('./commands/report.js')).reportCommand(),
    {
      term: 'report [options] <bundle-dir>',
      description: 'rebuild the self-contained report.html of a run bundle',
    },
  ],
  [
    'serve',
    async () => (await import('./commands/serve.js')).serveCommand(),
    {
      term: 'serve [options]',
      description: 'receive OTLP traces (HTTP + gRPC), score trials as they finish, keep live aggregates',
    },
  ],
  [
    'query',
    async () => (await import('./commands/query.js')).queryCommand(),
    {
      term: 'query [options] <sql>',
      description: 'run SQL over an evalstream DuckDB store (read-only unless --write)',
    },
  ],
  [
    'export',
    async () => (await import('./commands/export.js')).exportCommand(),
    {
      term: 'export [options]',
      description: 'export every table of an evalstream DuckDB store to Parquet (by run) and/or Arrow IPC',
    },
  ],
  [
    'score',
    async () => (await import('./commands/score.js')).scoreCommand(),
    {
      term: 'score [options] <inputs...>',
      description: 'score trials from their trace evidence and write a run bundle',
    },
  ],
  [
    'init',
    async () => (await import('./commands/init.js')).initCommand(),
    { term: 'init [options]', description: 'write a commented starter evalstream.config.mjs' },
  ],
  [
    'gym',
    async () => (await import('./commands/gym.js')).gymCommand(),
    { term: 'gym', description: 'NeMo Gym aggregate metrics and reward profiles, with Gym’s numbers' },
  ],
  [
    'compare',
    async () => (await import('./commands/compare.js')).compareCommand(),
    {
      term: 'compare [options] <runA> <runB>',
      description: 'compare two runs output by output: paired differences, intervals, tests and a verdict',
    },
  ],
  [
    'merge',
    async () => (await import('./commands/merge.js')).mergeCommand(),
    {
      term: 'merge [options] <shards...>',
      description:
        'merge runs scored in shards (disjoint trials of one run) into one bundle: bundles, or Parquet exports and DuckDB stores',
    },
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
  const named = COMMANDS.find(([name]) => name === wanted);
  if (named !== undefined) program.addCommand(await named[1]());
  else {
    const terms = new Map<Command, string>();
    for (const [name, load, listing] of COMMANDS) {
      if (listing === undefined) program.addCommand(await load());
      else {
        const command = new Command(name).description(listing.description);
        terms.set(command, listing.term);
        program.addCommand(command);
      }
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
