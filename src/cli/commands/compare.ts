import { Command, InvalidArgumentError, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { BundleReadError } from '../../bundle/bundle-read-error.js';
import { compareRuns } from '../../compare/compare-runs.js';
import { formatComparisonText } from '../../compare/format-comparison-text.js';
import { readRunValues, type RunValues } from '../../compare/read-run-values.js';
import { renderComparisonHtml } from '../../compare/render-comparison-html.js';
import { InputError } from '../../sources/input-error.js';
import { CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';
import { intAtLeast } from '../int-at-least.js';

interface CompareFlags {
  metric?: string[];
  lowerIsBetter?: string[];
  higherIsBetter?: string[];
  json?: boolean;
  html?: string;
  failOn?: 'regression';
  seed: number;
  alpha: number;
  resamples: number;
  runA?: string;
  runB?: string;
}

function level(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n < 1)) throw new InvalidArgumentError('must be a number between 0 and 1');
  return n;
}

/**
 * `evalstream compare <runA> <runB>`: compares run B with run A output by output and prints the
 * paired differences, tests and a verdict per output (options and exit codes: the help text below).
 *
 * @example
 * await main(['compare', 'runs/base', 'runs/candidate', '--fail-on', 'regression']);
 */
export function compareCommand(): Command {
  return new Command('compare')
    .description('compare two runs output by output: paired differences, intervals, tests and a verdict')
    .argument(
      '<runA>',
      'the baseline: a run bundle directory, a DuckDB store (store.duckdb[#RUN_ID]) or a Gym rollouts .jsonl file',
    )
    .argument('<runB>', 'the candidate, compared with A (differences are B − A)')
    .option(
      '--metric <name...>',
      'outputs to compare (e.g. verifier_reward.reward); default: all in both runs',
    )
    .option(
      '--lower-is-better <name...>',
      'outputs where lower is better (built-in token, cost, time and error outputs already are)',
    )
    .option('--higher-is-better <name...>', 'outputs where higher is better, overriding the built-in default')
    .option('--json', 'print the comparison as JSON')
    .option('--html <file>', 'also write the comparison as a self-contained HTML page')
    .addOption(
      new Option('--fail-on <what>', 'exit 1 when any output compared regressed (a CI gate)').choices([
        'regression',
      ]),
    )
    .option('--seed <n>', 'seed of the bootstrap and permutation resampling', intAtLeast(0), 0)
    .option('--alpha <a>', 'significance level of the verdicts (Holm-adjusted)', level, 0.05)
    .option('--resamples <n>', 'bootstrap resamples', intAtLeast(0), 2000)
    .option('--run-a <id>', 'the run of store A to read (default: its newest run)')
    .option('--run-b <id>', 'the run of store B to read (default: its newest run)')
    .addHelpText(
      'after',
      `
Examples:
  evalstream compare runs/base runs/candidate
  evalstream compare runs/base runs/candidate --metric verifier_reward.reward --fail-on regression
  evalstream compare runs/base runs/candidate --lower-is-better token_usage.total_tokens --html compare.html
  evalstream compare base/rollouts.jsonl candidate/rollouts.jsonl --json | jq '.outputs[0].verdict'
  evalstream compare runs/all.duckdb#base runs/all.duckdb#candidate   # two runs of one store
  evalstream compare runs/base runs/live.duckdb                        # the store's newest run

Exit codes: 0 compared (whatever the verdicts); 1 --fail-on regression and an output regressed;
2 bad usage or input.`,
    )
    .action(async (pathA: string, pathB: string, flags: CompareFlags) => {
      const a = await read(pathA, flags.runA ?? null);
      const b = await read(pathB, flags.runB ?? null);
      const shared = [...a.outputs.keys()].filter((name) => b.outputs.has(name));
      for (const name of [
        ...(flags.metric ?? []),
        ...(flags.lowerIsBetter ?? []),
        ...(flags.higherIsBetter ?? []),
      ]) {
        if (!shared.includes(name)) {
          throw new CliError(
            `no output '${name}' in both runs; outputs in both: ${shared.sort().join(', ') || '(none)'}`,
            EXIT_BAD_INPUT,
          );
        }
      }
      const comparison = compareRuns(a, b, {
        ...(flags.metric === undefined ? {} : { outputs: flags.metric }),
        lowerIsBetter: flags.lowerIsBetter ?? [],
        higherIsBetter: flags.higherIsBetter ?? [],
        alpha: flags.alpha,
        seed: flags.seed,
        bootstrapResamples: flags.resamples,
      });
      if (flags.html !== undefined) await writeFile(flags.html, renderComparisonHtml(comparison), 'utf8');
      process.stdout.write(
        flags.json ? JSON.stringify(comparison, null, 2) + '\n' : formatComparisonText(comparison),
      );
      const regressed = comparison.outputs.filter((o) => o.verdict === 'regressed').map((o) => o.name);
      if (flags.failOn === 'regression' && regressed.length > 0)
        throw new CliError(`regressed: ${regressed.join(', ')}`, EXIT_RUN_FAILED);
    });
}

async function read(path: string, runId: string | null): Promise<RunValues> {
  try {
    return await readRunValues(path, runId);
  } catch (error) {
    if (error instanceof BundleReadError || error instanceof InputError)
      throw new CliError(error.message, EXIT_BAD_INPUT);
    throw error;
  }
}
