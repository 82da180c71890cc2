import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { BundleReadError } from './bundle-read-error.js';
import { parsePythonJson } from '../pycompat/parse-python-json.js';
import { rowSources } from './row-sources.js';

/**
 * Reads and validates one JSON file of a bundle (`run.json`, `metadata.json`, `summary.json`);
 * null when the file does not exist. A syntax error names the line and column, a schema error the
 * field. The value is registered in `rowSources` so writers keep its number literals.
 *
 * @example
 * const meta = await readBundleJson(dir, 'metadata.json', rowSchemas.metadata);
 */
export async function readBundleJson<T extends object>(
  dir: string,
  name: string,
  schema: z.ZodType<T, unknown>,
): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(join(dir, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BundleReadError([
      { code: 'unreadable_file', file: name, path: [], message: (error as Error).message },
    ]);
  }
  const parsed = parsePythonJson(text);
  if (!parsed.ok) {
    const before = text.slice(0, parsed.offset);
    const line = before.split('\n').length;
    const column = parsed.offset - before.lastIndexOf('\n');
    throw new BundleReadError([
      {
        code: 'invalid_json',
        file: name,
        line,
        path: [],
        message: `invalid JSON at column ${column}: ${parsed.message}`,
      },
    ]);
  }
  const result = schema.safeParse(parsed.value);
  if (!result.success) throw BundleReadError.fromZod(result.error, name);
  rowSources.remember(result.data, text, parsed.floatPaths);
  return result.data;
}
