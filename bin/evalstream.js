#!/usr/bin/env node
import { dropOutputOnClosedPipe } from '../dist/src/cli/drop-output-on-closed-pipe.js';
import { main } from '../dist/src/cli/main.js';

dropOutputOnClosedPipe(process.stdout);
process.exitCode = await main(process.argv.slice(2));
