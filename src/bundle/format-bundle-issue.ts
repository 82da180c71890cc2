import type { BundleIssue } from './bundle-issue.js';

/**
 * Formats an issue for people: `file:line: field.path[0]: message`.
 *
 * @example
 * formatBundleIssue({ code: 'invalid_row', file: 'scores.jsonl', line: 3, path: ['outputs', 0, 'name'], message: 'expected string' });
 * // 'scores.jsonl:3: outputs[0].name: expected string'
 */
export function formatBundleIssue(issue: BundleIssue): string {
  let out = issue.file;
  if (issue.line !== undefined) out += `:${issue.line}`;
  out += ': ';
  if (issue.path.length > 0) out += `${formatFieldPath(issue.path)}: `;
  return out + issue.message;
}

function formatFieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
