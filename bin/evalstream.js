#!/usr/bin/env node
import { dropOutputOnClosedPipe } from '../dist/src/cli/drop-output-on-closed-pipe.js';
import { relaunchServe } from '../dist/src/cli/relaunch-serve.js';

dropOutputOnClosedPipe(process.stdout);

const argv = process.argv.slice(2);
// `serve` starts again in a child with the Node options it needs (src/cli/relaunch-serve.ts)
const relaunched = await relaunchServe(argv, process.argv[1]);
if (relaunched !== null) process.exitCode = relaunched;
else {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(argv);
}
