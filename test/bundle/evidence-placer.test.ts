import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EvidencePlacer } from '../../src/bundle/evidence-placer.js';
import type { Trial } from '../../src/model/trial.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-placer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The mapping `place` gives for a trial without descriptors (no copying: no roots). */
async function mapping(bundle: string): Promise<(ref: string | null) => string | null> {
  return new EvidencePlacer(bundle).place({ evidence: null } as unknown as Trial);
}

describe('EvidencePlacer: refs in the bundle become bundle-relative, others stay as written', () => {
  it('sees through a symlinked directory and a symlinked file, one ref after another', async () => {
    const bundle = join(dir, 'bundle');
    mkdirSync(join(bundle, 'evidence'), { recursive: true });
    writeFileSync(join(bundle, 'evidence', 'a.json'), '{}');
    writeFileSync(join(bundle, 'evidence', 'b.json'), '{}');
    // a directory outside the bundle that is a symlink to the bundle's evidence
    symlinkSync(join(bundle, 'evidence'), join(dir, 'alias'));
    // a plain directory outside, holding a real file and a file symlink into the bundle
    mkdirSync(join(dir, 'inputs'));
    writeFileSync(join(dir, 'inputs', 'own.json'), '{}');
    symlinkSync(join(bundle, 'evidence', 'b.json'), join(dir, 'inputs', 'link.json'));

    const map = await mapping(bundle);
    expect(map(join(bundle, 'evidence', 'a.json'))).toBe('evidence/a.json');
    expect(map(join(dir, 'alias', 'a.json'))).toBe('evidence/a.json');
    expect(map(join(dir, 'alias', 'b.json'))).toBe('evidence/b.json');
    // same directory as the next ref: only the file symlink leads into the bundle
    const own = join(dir, 'inputs', 'own.json');
    expect(map(own)).toBe(own);
    expect(map(join(dir, 'inputs', 'link.json'))).toBe('evidence/b.json');
    expect(map(own)).toBe(own);
    // a ref that does not exist (yet) inside a symlinked directory
    expect(map(join(dir, 'alias', 'later.json'))).toBe('evidence/later.json');
    // a ref under a regular file (ENOTDIR) and a URI are kept as written
    const underFile = join(dir, 'inputs', 'own.json', 'x');
    expect(map(underFile)).toBe(underFile);
    expect(map('https://example.com/t.json')).toBe('https://example.com/t.json');
    expect(map(null)).toBe(null);
  });
});
