import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread running the module `name` next to `base` (a caller's `import.meta.url`):
 * `name.js` from built code, or `name.ts` with tsx registered inside the worker first when the caller
 * itself runs from TypeScript sources (tests, benchmarks), as loader hooks are per thread.
 *
 * The worker inherits this process's Node options, with two exceptions that would otherwise stop it
 * (and make every caller fall back to working alone, or fail):
 * - `--input-type` is dropped: from `node --input-type=module -e …` a worker loading a file exits at
 *   once ("can only be used with string input");
 * - when the options hold one a worker may not take (V8 flags such as `--always-sparkplug`,
 *   process-wide options: `ERR_WORKER_INVALID_EXEC_ARGV`), the worker gets none (V8 flags apply to
 *   every thread of the process anyway).
 *
 * @example
 * const worker = startModuleWorker(import.meta.url, 'gym-worker', { workerData: { dir } });
 */
export function startModuleWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const inherited = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  try {
    return createWorker(base, name, options, inherited);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return createWorker(base, name, options, []);
  }
}

function createWorker(base: string, name: string, options: WorkerOptions, execArgv: string[]): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), { ...options, execArgv });
  const script = new URL(`./${name}.ts`, base).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(code, { ...options, eval: true, execArgv });
}
