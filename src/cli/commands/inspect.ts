import { Command, Option } from 'commander';
import type { OtlpFileLayout } from '../../evidence/otlp/otlp-payload-splitter.js';
import type { TraceHandle } from '../../evidence/trace-handle.js';
import type { JsonValue } from '../../model/json-value.js';
import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import { trialDiagnosticPlace } from '../../model/trial-diagnostic-place.js';
import type { TrialItem } from '../../model/trial-item.js';
import type { InputFormat } from '../../sources/detect-format.js';
import { fromOtlpFiles } from '../../sources/from-otlp-files.js';
import { openInputs } from '../../sources/open-inputs.js';
import { BundleReadError } from '../../bundle/bundle-read-error.js';
import { InputError } from '../../sources/input-error.js';
import { bundleReadExitCode, CliError, EXIT_BAD_INPUT, EXIT_RUN_FAILED } from '../cli-error.js';

/** One trial as `inspect --json` prints it (one object per line). */
export interface InspectRecord {
  task_id: string;
  trial_id: string;
  spans: number;
  tool_calls: { name: string; arguments: JsonValue; result: JsonValue; is_error: boolean }[];
  tokens: { input: number | null; output: number | null };
  final_text: string | null;
  /** Problems with the trial's input the run goes on past (`TrialItem.diagnostics`); absent: none. */
  diagnostics?: TrialDiagnostic[];
}

const FORMATS: readonly InputFormat[] = ['bundle', 'harbor', 'atif', 'otlp', 'gym'];

/** Extra `--format` values that force an OTLP file layout (instead of deciding per file). */
const OTLP_LAYOUTS: Record<string, OtlpFileLayout> = {
  'otlp-json': 'json',
  'otlp-jsonl': 'jsonl',
  'otlp-pb': 'protobuf',
  'otlp-protobuf': 'protobuf',
};

async function primaryTrace(item: TrialItem): Promise<TraceHandle | null> {
  const ev = item.evidence;
  if (ev === null || ev.get('trace') === null) return null;
  try {
    return await ev.trace('trace');
  } catch {
    return null;
  }
}

/** What evalstream sees in one trial, from its primary trace (`trace` evidence). */
async function inspectRecord(item: TrialItem): Promise<InspectRecord> {
  const h = await primaryTrace(item);
  const usage = h?.normalizedTokenUsage();
  return {
    task_id: item.trial.task_id,
    trial_id: item.trial.id,
    spans: h?.stepCount() ?? 0,
    tool_calls: (h?.normalizedToolCalls() ?? []).map((c) => ({
      name: c.name,
      arguments: c.arguments,
      result: c.result,
      is_error: c.isError,
    })),
    tokens: { input: usage?.input ?? null, output: usage?.output ?? null },
    final_text: h === null ? (item.trial.output?.output_text ?? null) : h.finalText(),
    ...(item.diagnostics === undefined || item.diagnostics.length === 0
      ? {}
      : { diagnostics: item.diagnostics }),
  };
}

/** C0 and C1 control characters and DEL: a terminal would act on them (escape sequences, bells). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text from the inputs as the terminal shows it: every control character as a `\uXXXX` escape. */
function printable(s: string): string {
  return s.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function short(v: JsonValue, max = 160): string {
  const s = printable(JSON.stringify(v));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function formatText(r: InspectRecord, file: string): string {
  const lines = [`trial ${printable(r.trial_id)}  task ${printable(r.task_id)}  (${printable(file)})`];
  const tokens = (n: number | null): string => (n === null ? '-' : String(n));
  lines.push(`  spans ${r.spans}  tokens in ${tokens(r.tokens.input)} out ${tokens(r.tokens.output)}`);
  lines.push(`  tool calls: ${r.tool_calls.length === 0 ? 'none' : String(r.tool_calls.length)}`);
  r.tool_calls.forEach((c, i) => {
    lines.push(`    ${i + 1}. ${printable(c.name)}${c.is_error ? '  [error]' : ''}`);
    lines.push(`       arguments ${short(c.arguments)}`);
    lines.push(`       result    ${short(c.result)}`);
  });
  lines.push(`  final text: ${r.final_text === null ? '-' : short(r.final_text, 400)}`);
  for (const d of r.diagnostics ?? [])
    lines.push(`  diagnostic ${d.code}: ${printable(trialDiagnosticPlace(d))}: ${printable(d.message)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `evalstream inspect <inputs...>`: prints what evalstream sees per trial, control characters from
 * the inputs escaped (options and exit codes: the help text below).
 *
 * @example
 * // evalstream inspect traces/relay.jsonl --json
 * // {"task_id":"t1","trial_id":"run:t1","spans":12,"tool_calls":[...],"tokens":{"input":120,"output":24},"final_text":"..."}
 */
export function inspectCommand(): Command {
  return new Command('inspect')
    .description(
      'show, per trial, what evalstream reads from the inputs: ids, spans, tool calls, tokens, final text',
    )
    .argument(
      '<inputs...>',
      'trace files or directories (OTLP .json/.jsonl/.pb/.binpb[.gz], and more via --format)',
    )
    .option('--json', 'one JSON object per trial per line')
    .addOption(
      new Option(
        '--format <format>',
        'input format instead of detection: bundle, harbor, atif, otlp, gym (or otlp-json, otlp-jsonl, otlp-pb)',
      ),
    )
    .addHelpText(
      'after',
      `
Examples:
  evalstream inspect examples/harbor-job
  evalstream inspect traces/relay.jsonl --json | head

Exit codes: 0 ok; 1 an input was cut off (trials before it are shown); 2 bad usage or input.`,
    )
    .action(async (inputs: string[], opts: { json?: boolean; format?: string }) => {
      const format = opts.format;
      const layout = format === undefined ? undefined : OTLP_LAYOUTS[format];
      if (format !== undefined && layout === undefined && !FORMATS.includes(format as InputFormat)) {
        const known = [...FORMATS, ...Object.keys(OTLP_LAYOUTS)].join(', ');
        throw new CliError(`unknown --format ${JSON.stringify(format)} (expected one of ${known})`);
      }
      // as `score` does: a bad payload inside a dump, and what joins no trial, is a warning
      const onIssue = (issue: InputError): void => {
        process.stderr.write(`evalstream: warning: ${printable(issue.message)}\n`);
      };
      const trials =
        layout !== undefined
          ? fromOtlpFiles(inputs, { layout, onIssue })
          : openInputs(inputs, {
              onIssue,
              ...(format === undefined ? {} : { format: format as InputFormat }),
            });
      let count = 0;
      try {
        for await (const item of trials) {
          count += 1;
          const r = await inspectRecord(item);
          process.stdout.write(
            opts.json === true ? `${printable(JSON.stringify(r))}\n` : formatText(r, item.origin.file),
          );
        }
      } catch (error) {
        if (error instanceof BundleReadError) throw new CliError(error.message, bundleReadExitCode(error));
        if (!(error instanceof InputError)) throw error;
        if (count === 0) throw new CliError(error.message, EXIT_BAD_INPUT);
        throw new CliError(`incomplete: ${error.message}`, EXIT_RUN_FAILED);
      }
      if (count === 0) throw new CliError('no trials found in the inputs', EXIT_BAD_INPUT);
    });
}
