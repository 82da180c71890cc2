import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateGymRollouts } from '../../bench/generate-gym-rollouts.js';
import { tempDir } from './gym-test-helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * A function whose hot loop is compiled on the stack during its first, largest call, with code after
 * the loop that had not run yet, deoptimizes on every later call that enters that compiled loop: on
 * 200k rollouts pandasMedian, pandasStdAbout, the describe statistics and the repeat-level order
 * statistics deoptimized 254 to 1,563 times each a run, for nothing but lost time (stop 16,
 * docs/history/gym-speed.md). A run over 20k generated rollouts, with V8 tracing its
 * deoptimizations, must show none of that: a few per function are normal (a path taken late), a
 * loop shows as hundreds (405 for pandasMedian with the code before the fix).
 */
describe('gym aggregate has no deoptimization loops', () => {
  it('no function is deoptimized more than 30 times in a run over 20k rollouts', async () => {
    const dir = tempDir();
    const input = join(dir, 'rollouts.jsonl');
    await generateGymRollouts({ path: input, rollouts: 20_000, responseChars: 200 });
    const script = join(dir, 'run.mts');
    const module = pathToFileURL(join(ROOT, 'src', 'gym', 'aggregate-rollouts.ts')).href;
    writeFileSync(
      script,
      `import { aggregateRollouts } from ${JSON.stringify(module)};\n` +
        `await aggregateRollouts({ inputGlob: ${JSON.stringify(input)}, output: ${JSON.stringify(join(dir, 'm.jsonl'))} });\n`,
    );
    const trace = execFileSync(process.execPath, ['--trace-deopt', '--import', 'tsx', script], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 256 << 20,
    });
    const counts = new Map<string, number>();
    for (const m of trace.matchAll(/\[bailout .*?deoptimizing \S+ <JSFunction (\S+)/g)) {
      const name = m[1] as string;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    expect(counts.size).toBeGreaterThan(0); // the trace is there to read
    const loops = [...counts].filter(([, n]) => n > 30);
    expect(loops).toEqual([]);
  }, 60_000);
});
