// The baseline of bench/many-trials: reads every file below a directory (listed with their types,
// each file read whole, one after another) and prints the bytes read. Synchronous reads are the
// fastest way Node has to read many small files one after another.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

function readTree(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += readTree(path);
    else if (entry.isFile()) bytes += readFileSync(path).length;
  }
  return bytes;
}

process.stdout.write(`${JSON.stringify({ bytes: readTree(process.argv[2]) })}\n`);
