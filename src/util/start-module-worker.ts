import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread running the module `name` next to `base` (a caller's `import.meta.url`):
 * `name.js` from built code, or `name.ts` with tsx registered inside the worker first when the caller
 * itself runs from TypeScript sources (tests, benchmarks), as loader hooks are per thread.
 *
 * The worker inherits this process's Node options except `--input-type`: a process started with
 * `node --input-type=module -e …` would otherwise hand it to the worker, which then refuses to load a
 * file and exits at once (every caller would silently fall back to working alone).
 *
 * @example
 * const worker = startModuleWorker(import.meta.url, 'gym-worker', { workerData: { dir } });
 */
export function startModuleWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), { ...options, execArgv });
  const script = new URL(`./${name}.ts`, base).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(code, { ...options, eval: true, execArgv });
}
