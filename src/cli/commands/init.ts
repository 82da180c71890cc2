import { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT_BAD_INPUT } from '../cli-error.js';

/**
 * The commented starter config `evalstream init` writes: plain JavaScript that imports nothing, so it
 * loads wherever the CLI runs (with or without the evalstream package next to it) and without a
 * TypeScript transform on every run.
 */
const STARTER = `// evalstream configuration: \`evalstream score <inputs...>\` picks this file up from the current
// directory (or pass --config). Every key is optional. Reference: docs/config.md, docs/metrics.md.
// A custom metric is a plain module exporting an object with type, outputSpec() and computeScores():
// import { answerLength } from './metrics/answer-length.js';

/** @type {import('evalstream').EvalstreamConfigInput} */
export default {
  // runId: 'my-run', // default: agent-eval-<UTC time>-<8 hex>
  labels: { benchmark: 'demo' }, // recorded verbatim in metadata.json

  metrics: {
    // Metrics of every task without its own list. Leave \`default\` out to let evalstream choose per task
    // from the evidence: trajectory_stats, token_usage, tool_call_efficiency when a trace exists,
    // verifier_reward when the runner recorded rewards.
    default: [
      'trajectory_stats',
      'token_usage',
      { name: 'tool_call_efficiency', options: { maxRepeatedCalls: 2 } },
      // 'exact_match', // answer vs reference.expected
      // { name: 'contains', options: { mode: 'any', caseSensitive: false } },
      // { name: 'numeric_match', options: { relTol: 0.01 } },
      // { name: 'verifier_reward', options: { keys: ['reward'], optionalKeys: [] } },
      // answerLength,
    ],
    // Per-task lists replace \`default\` for that task:
    // tasks: { 'hello-world': ['exact_match', 'usage'] },
  },

  // Views roll several outputs into one score (reducers: single, all, any, mean, weighted_mean).
  // views: {
  //   default: {
  //     efficient: { reducer: 'single', signals: [{ metric: 'tool_call_efficiency', output: 'efficient_tool_use' }] },
  //   },
  // },

  scoring: {
    concurrency: 4, // trials scored at once
    timeoutMs: 60_000, // per metric; null = no limit
    failFast: false, // true: abort on the first metric error instead of recording a failed score
  },
};
`;

interface InitFlags {
  force?: boolean;
  out: string;
}

/**
 * `evalstream init [--out FILE] [--force]`: writes a commented starter `evalstream.config.mjs`
 * (refuses to overwrite an existing file without `--force`; exit 2).
 *
 * @example
 * await main(['init']); // ./evalstream.config.mjs
 */
export function initCommand(): Command {
  return new Command('init')
    .description('write a commented starter evalstream.config.mjs')
    .option('--out <file>', 'where to write it', 'evalstream.config.mjs')
    .option('--force', 'overwrite an existing file')
    .addHelpText(
      'after',
      `
Example:
  evalstream init && evalstream score examples/harbor-job --out runs/r1   # score picks up ./evalstream.config.mjs`,
    )
    .action(async (flags: InitFlags) => {
      const file = resolve(flags.out);
      try {
        await writeFile(file, STARTER, { flag: flags.force ? 'w' : 'wx' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST')
          throw new CliError(`${flags.out} exists; use --force to overwrite it`, EXIT_BAD_INPUT);
        throw new CliError(`cannot write ${flags.out}: ${(error as Error).message}`, EXIT_BAD_INPUT);
      }
      process.stdout.write(`wrote ${flags.out}\n`);
    });
}
