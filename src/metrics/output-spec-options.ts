/** Options common to every output-spec factory (`required` defaults to true, as in the SDK). */
export interface OutputSpecOptions {
  /** false: the metric may omit this output when it could not measure it. Default true. */
  required?: boolean;
  /** Free text written to `tasks.jsonl`. Default null. */
  description?: string | null;
}
