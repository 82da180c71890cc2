/**
 * One problem found in an ATIF document (errors as data). `path` is the JSON path inside the
 * document (`['steps', 2, 'tool_calls', 0, 'arguments']`).
 *
 * @example
 * const issue: AtifIssue = { code: 'invalid_type', path: ['steps', 0, 'source'], message: 'Invalid option' };
 */
export interface AtifIssue {
  code: string;
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
}
