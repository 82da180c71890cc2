/** The `evalstream` program: runs `main` on the process's arguments (what `bin/evalstream.js` starts). */
import { dropOutputOnClosedPipe } from './drop-output-on-closed-pipe.js';
import { main } from './main.js';

dropOutputOnClosedPipe(process.stdout);
process.exitCode = await main(process.argv.slice(2));
