import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * In a fresh process (this one may have detached buffers already): a function reading a typed array
 * is optimized, then a buffer is transferred. V8 itself reports (`%GetOptimizationStatus`, bit 16:
 * optimized) whether the function's code survived the transfer.
 */
function optimizedAcrossTransfer(giveUpFirst: boolean): { before: boolean; after: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'detach-protector-'));
  const script = join(dir, 'child.mjs');
  const module = pathToFileURL(join(ROOT, 'src', 'util', 'give-up-detach-protector.ts')).href;
  writeFileSync(
    script,
    `import { giveUpDetachProtector } from ${JSON.stringify(module)};\n` +
      (giveUpFirst ? 'giveUpDetachProtector();\n' : '') +
      `function sum(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; return s; }\n` +
      `const a = new Float64Array(64).fill(1);\n` +
      `%PrepareFunctionForOptimization(sum);\nsum(a);\nsum(a);\n%OptimizeFunctionOnNextCall(sum);\nsum(a);\n` +
      `const before = (%GetOptimizationStatus(sum) & 16) !== 0;\n` +
      `structuredClone(null, { transfer: [new ArrayBuffer(8)] });\n` +
      `const after = (%GetOptimizationStatus(sum) & 16) !== 0;\n` +
      `console.log(JSON.stringify({ before, after }));\n`,
  );
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as { before: boolean; after: boolean };
}

describe('giveUpDetachProtector', () => {
  it('without it, the first transferred buffer throws away optimized typed-array code', () => {
    // the cost it exists for: in `gym aggregate` ~25 scan functions of the worker at its first range
    expect(optimizedAcrossTransfer(false)).toEqual({ before: true, after: false });
  });

  it('called first, optimized code survives later transfers', () => {
    expect(optimizedAcrossTransfer(true)).toEqual({ before: true, after: true });
  });
});
