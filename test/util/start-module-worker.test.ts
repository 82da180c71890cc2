import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const helper = pathToFileURL(join(import.meta.dirname, '../../src/util/start-module-worker.ts')).href;

/** Starts an echo worker next to a temporary `caller.js` from a child `node <nodeArgs> -e …`; its output lines. */
function runEchoWorker(nodeArgs: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'evalstream-worker-'));
  writeFileSync(
    join(dir, 'echo-worker.js'),
    "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage(`echo ${workerData}`);\n",
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const base = pathToFileURL(join(dir, 'caller.js')).href;
  const code =
    `const { startModuleWorker } = await import(${JSON.stringify(helper)});` +
    `const w = startModuleWorker(${JSON.stringify(base)}, 'echo-worker', { workerData: 'hi' });` +
    `w.on('message', (m) => console.log(m));` +
    `w.on('error', (e) => console.log('error', e.message));` +
    `w.on('exit', (c) => console.log('exit', c));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', ...nodeArgs, '-e', code], {
    encoding: 'utf8',
  });
  return out.trim().split('\n');
}

describe('startModuleWorker', () => {
  it('starts a built worker from a process run as `node --input-type=module -e …`', () => {
    // A file worker inheriting --input-type exits at once ("--input-type can only be used with string
    // input"), which made gym aggregate fall back to one thread when run that way (bench/gym).
    expect(runEchoWorker(['--input-type=module'])).toEqual(['echo hi', 'exit 0']);
  }, 30_000);

  it('starts a worker when node was given a V8 flag a worker may not take', () => {
    // `node --always-sparkplug bin/evalstream.js gym aggregate …` used to fail with
    // ERR_WORKER_INVALID_EXEC_ARGV.
    expect(runEchoWorker(['--input-type=module', '--always-sparkplug'])).toEqual(['echo hi', 'exit 0']);
  }, 30_000);
});
