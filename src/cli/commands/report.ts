import { Command, Option } from 'commander';
import { intAtLeast } from '../int-at-least.js';
import { stat } from 'node:fs/promises';
import { BundleReadError } from '../../bundle/bundle-read-error.js';
import { reportWriterFor } from '../../report/report-writer-for.js';
import { bundleReadExitCode, CliError, EXIT_RUN_FAILED } from '../cli-error.js';

interface ReportFlags {
  out?: string;
  trajectories: 'auto' | 'all' | 'none';
  maxText?: number;
  json?: boolean;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `evalstream report <bundle-dir>`: rebuilds the self-contained `report.html` of a bundle and prints
 * where it went and its size (options and exit codes: the help text below).
 *
 * @example
 * await main(['report', 'examples/sparse-run', '--out', 'runs/sparse-report.html']);
 */
export function reportCommand(): Command {
  return new Command('report')
    .description('rebuild the self-contained report.html of a run bundle')
    .argument('<bundle-dir>', 'run bundle directory (scores.jsonl, summary.json, trials.jsonl, ...)')
    .option('--out <file>', 'write the report here instead of <bundle-dir>/report.html')
    .addOption(
      new Option(
        '--trajectories <mode>',
        'trial details and trajectories: auto (failed or errored trials up to 200, then a sample of 100), all, or none (details without trajectories)',
      )
        .choices(['auto', 'all', 'none'])
        .default('auto'),
    )
    .option(
      '--max-text <chars>',
      'longest string kept from outputs, messages and tool calls (default 4000)',
      intAtLeast(1),
    )
    .option('--json', 'print {"path", "bytes"} as JSON')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ evalstream report runs/r1                      # writes runs/r1/report.html',
        '  $ evalstream report runs/r1 --out r1-report.html --trajectories none',
        '',
        'The report is one HTML file with the run embedded; it loads nothing from the network.',
        'Every trial has a row; details are kept for a bounded selection (see docs/report.md).',
        'Exit codes: 0 written, 1 the file could not be written, 2 bad usage or an unreadable bundle.',
      ].join('\n'),
    )
    .action(async (dir: string, flags: ReportFlags) => {
      const info = await stat(dir).catch(() => null);
      if (info === null || !info.isDirectory()) {
        throw new CliError(
          `${dir} is not a directory: pass the run bundle directory (the one with scores.jsonl)`,
        );
      }
      let result: { path: string; bytes: number } | null;
      try {
        result = await reportWriterFor(dir, {
          trajectories: flags.trajectories,
          ...(flags.out === undefined ? {} : { outPath: flags.out }),
          ...(flags.maxText === undefined ? {} : { maxTextChars: flags.maxText }),
        });
      } catch (error) {
        if (error instanceof BundleReadError) {
          throw new CliError(`cannot read the bundle: ${error.message}`, bundleReadExitCode(error));
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'string') {
          throw new CliError(`cannot write the report: ${(error as Error).message}`, EXIT_RUN_FAILED);
        }
        throw error;
      }
      if (result === null) throw new CliError('no report was written', EXIT_RUN_FAILED);
      if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
      else process.stdout.write(`wrote ${result.path} (${formatBytes(result.bytes)})\n`);
    });
}
