import { describe, expect, it } from 'vitest';
import { pySplitlines } from '../../src/evidence/py-splitlines.js';
import { unifiedDiff } from '../../src/evidence/unified-diff.js';

// Expected strings produced by CPython 3 difflib.unified_diff on the same inputs (independent oracle).
describe('unifiedDiff (port of difflib.unified_diff)', () => {
  const a = 'line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\n';
  const b = 'line1\nline2 changed\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11';

  it('splits hunks separated by more than 2×context equal lines; last line without newline', () => {
    expect(unifiedDiff(pySplitlines(a, true), pySplitlines(b, true), 'a/src/x.txt', 'b/src/x.txt', 3)).toBe(
      '--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1,5 +1,5 @@\n line1\n-line2\n+line2 changed\n line3\n line4\n line5\n@@ -8,3 +8,4 @@\n line8\n line9\n line10\n+line11',
    );
  });

  it('formats one-line ranges without a length (context 1)', () => {
    expect(unifiedDiff(pySplitlines(a, true), pySplitlines(b, true), 'a/f', 'b/f', 1)).toBe(
      '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n line1\n-line2\n+line2 changed\n line3\n@@ -10 +10,2 @@\n line10\n+line11',
    );
  });

  it('an empty before file gives range -0,0', () => {
    expect(unifiedDiff([], ['new\n'], 'a/n', 'b/n')).toBe('--- a/n\n+++ b/n\n@@ -0,0 +1 @@\n+new\n');
  });

  it('reproduces the autojunk heuristic on long inputs (popular lines)', () => {
    const A = [...Array<string>(250).fill('x\n'), 'a\n', 'b\n', ...Array<string>(10).fill('y\n')];
    const B = [...Array<string>(249).fill('x\n'), 'a\n', 'c\n', ...Array<string>(10).fill('y\n'), 'z\n'];
    const ys = (sign: string): string => `${sign}y\n`.repeat(10);
    expect(unifiedDiff(A, B, 'a/big', 'b/big')).toBe(
      `--- a/big\n+++ b/big\n@@ -1,4 +1,3 @@\n-x\n x\n x\n x\n@@ -249,14 +248,15 @@\n x\n x\n a\n-b\n${ys('-')}+c\n${ys('+')}+z\n`,
    );
  });

  it('identical inputs give an empty string', () => {
    expect(unifiedDiff(['a\n'], ['a\n'], 'a/x', 'b/x')).toBe('');
  });
});

describe('pySplitlines', () => {
  it('matches str.splitlines boundaries', () => {
    expect(pySplitlines('a\r\nb\rc\u2028d\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(pySplitlines('a\n\nb', true)).toEqual(['a\n', '\n', 'b']);
    expect(pySplitlines('')).toEqual([]);
  });
});
