import { Command, Option } from 'commander';
import { intAtLeast } from '../int-at-least.js';
import type { ScoreFlags } from './run-score.js';

/**
 * `evalstream score <inputs...>`: scores the trials of the inputs and writes a run bundle (options
 * and exit codes: the help text below).
 *
 * @example
 * await main(['score', 'jobs/2026-01-05', '--config', 'evalstream.config.ts', '--out', 'runs/r1']);
 */
export function scoreCommand(): Command {
  return new Command('score')
    .description('score trials from their trace evidence and write a run bundle')
    .argument('<inputs...>', 'run bundles, Harbor job dirs, ATIF/OTLP/Gym files, or directories of them')
    .option('--config <file>', 'config file (default: ./evalstream.config.{ts,mts,js,mjs,json} when present)')
    .option('--out <dir>', 'run bundle directory (default: runs/<run id>)')
    .addOption(
      new Option('--format <format>', 'input format')
        .choices(['auto', 'bundle', 'harbor', 'atif', 'otlp', 'gym'])
        .default('auto'),
    )
    .addOption(
      new Option(
        '--engine <engine>',
        'auto: in memory, handed to duckdb past 8M score records (fewer with little RAM; with --db: duckdb for inputs over 1 GiB); memory: summary computed in memory; duckdb: in DuckDB SQL, spilling to disk (same summary.json), and a store',
      )
        .choices(['auto', 'memory', 'duckdb'])
        .default('auto'),
    )
    .option(
      '--db <file>',
      'also store the run in this DuckDB file (either engine; --engine duckdb default: <out>/evalstream.duckdb)',
    )
    .option('--no-report', 'do not write report.html')
    .option('--concurrency <n>', 'trials scored at once (overrides the config)', intAtLeast(1))
    .option('--run-id <id>', 'run id (overrides the config)')
    .option('--no-progress', 'never draw a progress bar')
    .option('--json', 'print the run outcome as one JSON object instead of the aggregate table')
    .addHelpText(
      'after',
      `
Examples:
  evalstream score examples/harbor-job --out runs/example
  evalstream score traces/*.jsonl --config evalstream.config.ts --out runs/r1 --db runs/all.duckdb
  evalstream score rollouts.jsonl --format gym --out runs/gym
  evalstream score jobs/big --engine duckdb --db runs/all.duckdb --out runs/big   # SQL summary + store

Ctrl-C (SIGINT) or SIGTERM stops the run: the trials scored so far are written, exit 1.
Exit codes: 0 ok; 1 the run failed, was interrupted or an input was cut off (trials read before it are kept);
2 bad usage or input (the message names the file, line/offset and field).`,
    )
    .action(async (inputs: string[], flags: ScoreFlags) => {
      const { runScore } = await import('./run-score.js');
      await runScore(inputs, flags);
    });
}
