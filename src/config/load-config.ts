import { access, readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from './config-error.js';
import type { EvalstreamConfig } from './evalstream-config.js';
import { parseConfig } from './parse-config.js';

const TS_EXTENSIONS = ['.ts', '.mts', '.cts'];
const JS_EXTENSIONS = ['.js', '.mjs', '.cjs'];

/**
 * Loads and validates `evalstream.config.ts|.mts|.js|.mjs|.json`. A module config exports the config
 * as `default` (or as `config`); TypeScript is loaded through tsx's `tsImport`. Custom metrics are
 * plain objects the module imports and lists. Throws {@link ConfigError} naming the file (and the
 * path of each invalid field) when the file is missing, cannot be loaded, or is invalid.
 *
 * @example
 * const config = await loadConfig('evalstream.config.ts');
 */
export async function loadConfig(file: string): Promise<EvalstreamConfig> {
  const abs = resolve(file);
  const ext = extname(abs).toLowerCase();
  const fail = (message: string): never => {
    throw new ConfigError(file, [{ path: '', message }]);
  };
  const isModule = TS_EXTENSIONS.includes(ext) || JS_EXTENSIONS.includes(ext);
  if (ext !== '.json' && !isModule)
    return fail(`unsupported config type '${ext || '(none)'}'; use .ts, .mts, .js, .mjs or .json`);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (error) {
    return fail(`cannot read: ${(error as Error).message}`);
  }
  if (!isModule) {
    try {
      return parseConfig(JSON.parse(text), file);
    } catch (error) {
      if (error instanceof SyntaxError) return fail(`invalid JSON: ${error.message}`);
      throw error;
    }
  }
  const load = TS_EXTENSIONS.includes(ext) ? await tsImporter(fail) : (url: string) => import(url);
  let mod: Record<string, unknown>;
  try {
    mod = (await load(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (error) {
    return fail(`cannot load: ${(error as Error).message}`);
  }
  // A .ts file outside a `"type": "module"` package is compiled as CommonJS: its ESM exports sit
  // on `default` marked `__esModule`.
  const inner = mod['default'] as Record<string, unknown> | undefined;
  if (typeof inner === 'object' && inner !== null && inner['__esModule'] === true) mod = inner;
  const raw =
    'default' in mod
      ? mod['default']
      : 'config' in mod
        ? mod['config']
        : fail('exports no config (use `export default defineConfig({...})`)');
  return parseConfig(raw, file);
}

/** How a TypeScript config is loaded: tsx's `tsImport`, relative to this module. */
async function tsImporter(fail: (m: string) => never): Promise<(url: string) => Promise<unknown>> {
  try {
    const { tsImport } = (await import('tsx/esm/api')) as {
      tsImport: (specifier: string, parent: string) => Promise<unknown>;
    };
    return (url) => tsImport(url, import.meta.url);
  } catch {
    return fail(
      "TypeScript configs need the 'tsx' package (npm i -D tsx); or write evalstream.config.js/.json",
    );
  }
}

/** Config file names looked for, in this order. */
const NAMES = [
  'evalstream.config.ts',
  'evalstream.config.mts',
  'evalstream.config.js',
  'evalstream.config.mjs',
  'evalstream.config.json',
];

/**
 * The first `evalstream.config.{ts,mts,js,mjs,json}` in `dir`, or null.
 *
 * @example
 * const file = (await findConfigFile(process.cwd())) ?? undefined;
 */
export async function findConfigFile(dir: string): Promise<string | null> {
  for (const name of NAMES) {
    const candidate = join(dir, name);
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next name
    }
  }
  return null;
}
