import { Command } from 'commander';
import type { GymHooks } from '../../gym/compute/gym-hooks.js';
import { GymInputError } from '../../gym/gym-input-error.js';
import { CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';

// The implementations are imported when a subcommand runs: `gym aggregate` without --db then loads
// the gym code alone, not the scoring pipeline, zod or DuckDB (about half a second of start-up).

interface AggregateFlags {
  inputGlob: string;
  output: string;
  merge: boolean;
  includeFailures?: boolean;
  db?: string;
  hooks?: string;
  passAtK?: boolean;
  answerKey?: string;
  threads?: string;
}

interface ProfileFlags {
  inputs: string;
  rollouts: string;
  allowPartialRollouts?: boolean;
}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const warn = (text: string): void => {
  process.stderr.write(`evalstream: warning: ${text}\n`);
};

function asCliError(error: unknown): unknown {
  if (error instanceof GymInputError) return new CliError(error.message, EXIT_BAD_INPUT);
  return error;
}

async function aggregate(flags: AggregateFlags): Promise<void> {
  if (flags.answerKey !== undefined && !flags.passAtK)
    throw new CliError('--answer-key needs --pass-at-k', EXIT_BAD_INPUT);
  const threads = flags.threads === undefined ? undefined : Number(flags.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64))
    throw new CliError(`--threads must be an integer from 1 to 64, got ${flags.threads}`, EXIT_BAD_INPUT);
  try {
    const hooks: GymHooks =
      flags.hooks === undefined
        ? {}
        : await (await import('../../gym/load-gym-hooks.js')).loadGymHooks(flags.hooks);
    if (flags.passAtK) hooks.passAtK = { answerKey: flags.answerKey };
    const { aggregateRollouts } = await import('../../gym/aggregate-rollouts.js');
    const result = await aggregateRollouts({
      inputGlob: flags.inputGlob,
      output: flags.output,
      merge: flags.merge,
      includeFailures: flags.includeFailures ?? false,
      hooks,
      log: out,
      warn,
      ...(threads === undefined ? {} : { parallel: { workers: threads } }),
    });
    if (flags.db !== undefined && result.files.length > 0) {
      const [{ runPipeline }, { buildPipeline }, { fromGymRollouts }, { toDuckDB }] = await Promise.all([
        import('../../pipeline/run-pipeline.js'),
        import('../../pipeline/build-pipeline.js'),
        import('../../sources/from-gym-rollouts.js'),
        import('../../sinks/to-duckdb.js'),
      ]);
      const { runId, error } = await runPipeline(
        buildPipeline({
          source: fromGymRollouts(result.files),
          sinks: [toDuckDB(flags.db, { metadata: { source: 'gym aggregate', input_glob: flags.inputGlob } })],
          onWarning: warn,
        }),
      );
      if (error !== null) {
        throw new CliError(
          `storing the rollouts in ${flags.db} failed: ${(error as Error).message}`,
          EXIT_RUN_FAILED,
        );
      }
      out(`Rollouts stored in ${flags.db} (run ${runId})`);
    }
  } catch (error) {
    throw asCliError(error);
  }
}

async function profile(flags: ProfileFlags): Promise<void> {
  try {
    const { profileRollouts } = await import('../../gym/profile-rollouts.js');
    await profileRollouts({
      inputs: flags.inputs,
      rollouts: flags.rollouts,
      allowPartialRollouts: flags.allowPartialRollouts ?? false,
      log: out,
      warn,
    });
  } catch (error) {
    throw asCliError(error);
  }
}

/**
 * `evalstream gym aggregate|profile`: NeMo Gym's `gym eval aggregate` and `gym eval profile`, with
 * Gym's numbers (options and exit codes: the help text below).
 *
 * @example
 * await main(['gym', 'aggregate', '-i', 'results/rollouts-*.jsonl', '-o', 'results/rollouts.jsonl']);
 */
export function gymCommand(): Command {
  const gym = new Command('gym').description(
    'NeMo Gym aggregate metrics and reward profiles, with Gym’s numbers',
  );
  gym
    .command('aggregate')
    .description('merge rollout shards and write <output stem>_aggregate_metrics.json')
    .requiredOption('-i, --input-glob <globs>', 'shard glob, or several separated by commas')
    .requiredOption('-o, --output <file>', 'merged rollouts JSONL; the metrics file goes next to it')
    .option('--no-merge', 'do not write the merged rollouts (only the metrics file)')
    .option(
      '--include-failures',
      'also read *_failures.jsonl / *_materialized_inputs.jsonl matched by a glob',
    )
    .option('--db <file>', 'also store the rollouts (as scored trials) in this DuckDB file')
    .option('--hooks <module>', 'module exporting computeMetrics(tasks) and/or getKeyMetrics(agentMetrics)')
    .option('--pass-at-k', "add Gym's pass@k / majority@k metrics (compute_pass_majority_metrics)")
    .option('--answer-key <field>', 'with --pass-at-k: the answer field for majority@k and no_answer')
    .option(
      '--threads <n>',
      'threads that read inputs over 32 MiB, this one included; one of them writes the merged file (default: cores, at most 4; 1: no worker threads)',
    )
    .addHelpText(
      'after',
      `
Examples:
  evalstream gym aggregate -i 'results/*_rollouts.jsonl' -o results/merged.jsonl
  evalstream gym aggregate -i 'shard-*.jsonl,extra/*.jsonl' -o merged.jsonl --no-merge --pass-at-k

Exit codes: 0 ok; 2 bad usage or input (malformed line, duplicate (task, rollout) rows; file and line named).`,
    )
    .action(aggregate);
  gym
    .command('profile')
    .description(
      'reward profile of rollouts against their materialized inputs (three files next to the rollouts)',
    )
    .requiredOption('--inputs <file>', 'materialized inputs JSONL (<stem>_materialized_inputs.jsonl)')
    .requiredOption('--rollouts <file>', 'rollouts JSONL')
    .option('--allow-partial-rollouts', 'drop inputs that have no rollout instead of failing')
    .addHelpText(
      'after',
      `
Example:
  evalstream gym profile --inputs materialized_inputs.jsonl --rollouts rollouts.jsonl

Exit codes: 0 ok; 2 bad usage or input.`,
    )
    .action(profile);
  return gym;
}
