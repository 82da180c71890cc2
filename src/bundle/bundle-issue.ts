/**
 * One problem found in a run bundle, as data: which file, which line (1-based, for JSONL files), which
 * field (a path into the row) and what is wrong. `code` is a stable machine-readable tag.
 *
 * @example
 * const issue: BundleIssue = { code: 'invalid_row', file: 'scores.jsonl', line: 3, path: ['status'], message: 'Invalid option' };
 */
export interface BundleIssue {
  code:
    | 'missing_file'
    | 'invalid_json'
    | 'invalid_utf8'
    | 'invalid_row'
    | 'ref_escape'
    | 'truncated_line'
    | 'unreadable_file'
    | 'invalid_output_dir';
  /** Path of the file relative to the bundle directory (e.g. `scores.jsonl`), or absolute. */
  file: string;
  line?: number;
  path: (string | number)[];
  message: string;
}
