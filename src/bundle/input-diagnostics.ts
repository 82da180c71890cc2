import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import type { InputDiagnosticCode, InputError } from '../sources/input-error.js';

/**
 * The problems of a run's input that attach to no trial (a payload skipped, spans or log records
 * that joined no trial), kept for `diagnostics.jsonl` as rows with null trial and task ids. Sources
 * report them through `onIssue` as the run goes; the bundle sink writes them at its end. At most
 * `maxRows` are kept, in order; past that one more row per code counts the rest, so memory stays
 * bounded and nothing goes uncounted.
 *
 * @example
 * const input = new InputDiagnostics();
 * openInputs(paths, { onIssue: (issue) => input.add(issue) });
 * toRunBundle('runs/r1', { inputDiagnostics: input });
 */
export class InputDiagnostics {
  readonly #rows: TrialDiagnosticRow[] = [];
  readonly #beyond = new Map<InputDiagnosticCode, number>();

  constructor(readonly maxRows = 10_000) {}

  /** Keeps `issue` (one `onIssue` reported); an issue with no `diagnostic` code is a skipped payload. */
  add(issue: InputError): void {
    const code = issue.diagnostic ?? 'skipped_payload';
    if (this.#rows.length >= this.maxRows) {
      this.#beyond.set(code, (this.#beyond.get(code) ?? 0) + 1);
      return;
    }
    this.#rows.push({
      trial_id: null,
      task_id: null,
      code,
      message: issue.reason,
      file: issue.file,
      line: issue.line,
      offset: issue.offset,
      field: issue.field ?? '',
    });
  }

  /** The rows in the order reported, then one per code of those past `maxRows`. */
  rows(): TrialDiagnosticRow[] {
    const more = [...this.#beyond].map(([code, n]): TrialDiagnosticRow => ({
      trial_id: null,
      task_id: null,
      code,
      message: `${n} more problem(s) of this kind, not listed (past the first ${this.maxRows} rows)`,
      file: '',
      line: null,
      offset: null,
      field: '',
    }));
    return [...this.#rows, ...more];
  }
}
