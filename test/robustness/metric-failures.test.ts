import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

// Threat: a user metric that never settles, or a config that lies about its outputs, ending the run
// without a word (exit 13, nothing written) or with an opaque error.
const GYM = resolve('test/fixtures/gym/rollouts.jsonl');
const SPEC = `{ name: 'x', description: null, kind: 'continuous', valueSchema: 'ContinuousScore', required: true }`;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-metric-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI from source in a child process (real signals, real exit code). */
function cliProcess(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const main = resolve('src/cli/main.ts');
  const script = `import { main } from ${JSON.stringify(main)}; process.exitCode = await main(${JSON.stringify(args)});`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('a metric that never settles with timeoutMs: null', () => {
  it('does not end the process with exit 13: it waits, and SIGINT writes what finished (exit 1)', async () => {
    const config = join(dir, 'hang.config.mjs');
    // the third trial's metric never settles; once it hangs, the process is sent SIGINT (as Ctrl-C would)
    writeFileSync(
      config,
      `let n = 0;
export default {
  scoring: { timeoutMs: null, concurrency: 1 },
  metrics: { default: [{ type: 'hangs', outputSpec: () => [${SPEC}], computeScores: async () => {
    n += 1;
    if (n < 3) return { outputs: [{ name: 'x', value: n }] };
    setTimeout(() => process.kill(process.pid, 'SIGINT'), 50);
    return new Promise(() => {});
  } }] },
};
`,
    );
    const out = join(dir, 'hang');
    const r = await cliProcess([
      'score',
      GYM,
      '--config',
      config,
      '--out',
      out,
      '--no-progress',
      '--no-report',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('run failed after 2 trials: interrupted by SIGINT');
    expect(r.stderr).toContain(`incomplete: ${out} holds the 2 trials read before this point`);
    expect(readFileSync(join(out, 'scores.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
  });
});

describe('a config whose outputSpec() returns the wrong shape', () => {
  it.each([
    ['null', 'null', /outputSpec\(\) of metric 'bad_spec' must return an array of output specs \(got null\)/],
    [
      'a spec without kind',
      `[{ name: 'x' }]`,
      /outputSpec\(\)\[0\]\.kind of metric 'bad_spec' must be one of continuous/,
    ],
    [
      'a numeric name',
      `[${SPEC}, { ...${SPEC}, name: 5 }]`,
      /outputSpec\(\)\[1\]\.name of metric 'bad_spec' must be a non-empty string \(got 5\)/,
    ],
    [
      'a non-object',
      `[${SPEC}, 'x']`,
      /outputSpec\(\)\[1\] of metric 'bad_spec' must be an object \(got "x"\)/,
    ],
  ])('%s: exit 2 naming the config, the metric and the field', async (_what, specs, message) => {
    const config = join(dir, `spec-${Math.random().toString(16).slice(2)}.config.mjs`);
    writeFileSync(
      config,
      `export default { metrics: { default: [{ type: 'bad_spec', outputSpec: () => ${specs}, computeScores: async () => ({ outputs: [] }) }] } };\n`,
    );
    const r = await runCli(['score', GYM, '--config', config, '--out', join(dir, 'spec'), '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${config}: metrics.default[0]: `);
    expect(r.stderr).toMatch(message);
  });
});
