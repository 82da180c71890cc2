import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const helper = pathToFileURL(join(import.meta.dirname, '../../src/util/start-module-worker.ts')).href;

describe('startModuleWorker', () => {
  it('starts a built worker from a process run as `node --input-type=module -e …`', () => {
    // A file worker inheriting --input-type exits at once ("--input-type can only be used with string
    // input"), which made gym aggregate fall back to one thread when run that way (bench/gym).
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
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      encoding: 'utf8',
    });
    expect(out.trim().split('\n')).toEqual(['echo hi', 'exit 0']);
  }, 30_000);
});
