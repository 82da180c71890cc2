import { formatJsonPath } from '../util/format-json-path.js';
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
  if (issue.path.length > 0) out += `${formatJsonPath(issue.path, /^[A-Za-z_][A-Za-z0-9_]*$/)}: `;
  return out + issue.message;
}
