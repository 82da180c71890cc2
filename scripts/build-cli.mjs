// Bundles the CLI (src/cli/evalstream.ts) into dist/cli/ with esbuild: ESM, split into chunks so each
// command still loads only its own code, rxjs from its ESM build. The worker entry files that
// startModuleWorker starts are bundled next to the chunks, where it finds them. Packages with native bindings or files of their
// own stay external and load from node_modules. Run by `npm run build` and by the test set-up.
import { build } from 'esbuild';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each `startModuleWorker(import.meta.url, 'name')` of src/ starts `name.ts` next to its caller. */
async function workerEntries() {
  const entries = {};
  for (const file of await readdir(join(root, 'src'), { recursive: true })) {
    if (!file.endsWith('.ts')) continue;
    const text = await readFile(join(root, 'src', file), 'utf8');
    for (const [, name] of text.matchAll(/startModuleWorker\(import\.meta\.url, '([\w-]+)'/g)) {
      entries[name] = join(root, 'src', dirname(file), `${name}.ts`);
    }
  }
  return entries;
}
const outdir = join(root, 'dist', 'cli');
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { evalstream: join(root, 'src', 'cli', 'evalstream.ts'), ...(await workerEntries()) },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // rxjs's ES2015 modules (tree-shaken) rather than the CommonJS build its `node` export condition names
  alias: { rxjs: './node_modules/rxjs/dist/esm/index.js' },
  absWorkingDir: root,
  external: ['@duckdb/*', '@grpc/grpc-js', '@opentelemetry/*', 'apache-arrow', 'protobufjs', 'tsx'],
  // CommonJS dependencies bundled into ESM call `require` for Node's built-in modules
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
