// The baseline of bench/many-trials: reads every file below a directory (listed with their types,
// each file read whole, one after another, as a simple reader would) and prints the bytes read.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';

async function readTree(dir) {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await readTree(path);
    else if (entry.isFile()) bytes += (await readFile(path)).length;
  }
  return bytes;
}

process.stdout.write(`${JSON.stringify({ bytes: await readTree(process.argv[2]) })}\n`);
