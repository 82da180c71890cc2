import { readFileSync } from 'node:fs';

/**
 * The rows of a JSONL file the robustness tests read back (`diagnostics.jsonl`, `trials.jsonl`).
 *
 * @example
 * readJsonl(join(out, 'diagnostics.jsonl'))[0]?.['code']; // 'invalid_utf8'
 */
export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
