// Bundles the browser code of the report page and the live page (src/report/client, TypeScript) into
// dist/client/, where the HTML renderers read it: one minified IIFE per page, no imports left.
// Run by `npm run build` (and so by `prepare` on `npm ci`) and by the test set-up.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'client');
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: {
    'report-page': join(root, 'src', 'report', 'client', 'report-page.ts'),
    'live-page': join(root, 'src', 'report', 'client', 'live-page.ts'),
  },
  outdir,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});
const require = createRequire(import.meta.url);
await copyFile(require.resolve('uplot/dist/uPlot.min.css'), join(outdir, 'uplot.css'));
