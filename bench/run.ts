/**
 * Benchmark runner (`npm run bench [-- name ...]`): imports every `bench/*.bench.ts`, or only those
 * whose names are given (`summarize` or `summarize.bench.ts`), one after another. A bench file does
 * its work when imported and prints its own figures.
 */
import { readdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const here = import.meta.dirname;
const all = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
const wanted = process.argv.slice(2).map((a) => (a.endsWith('.bench.ts') ? a : `${a}.bench.ts`));
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (have: ${all.join(', ')})`);
  process.exit(2);
}
for (const file of wanted.length > 0 ? wanted : all) {
  console.log(`# ${file}`);
  const started = performance.now();
  await import(pathToFileURL(join(here, file)).href);
  console.log(`# ${file} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
