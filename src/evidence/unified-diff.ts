import { matchingBlocks } from './matching-blocks.js';

type Opcode = ['equal' | 'replace' | 'delete' | 'insert', number, number, number, number];

/**
 * A line-for-line port of Python's `difflib.unified_diff(a, b, fromfile, tofile, n=context)` (with
 * `SequenceMatcher`'s autojunk heuristic), so patches match the SDK's byte for byte. Lines keep their
 * line endings, as from `splitlines(keepends=True)`.
 *
 * @example
 * unifiedDiff(['a\n', 'b\n'], ['a\n', 'c\n'], 'a/f', 'b/f');
 * // '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedDiff(a: string[], b: string[], fromFile: string, toFile: string, context = 3): string {
  let out = '';
  for (const group of groupedOpcodes(a, b, context)) {
    if (out === '') out = `--- ${fromFile}\n+++ ${toFile}\n`;
    const first = group[0] as Opcode;
    const last = group[group.length - 1] as Opcode;
    out += `@@ -${formatRange(first[1], last[2])} +${formatRange(first[3], last[4])} @@\n`;
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === 'equal') {
        for (const line of a.slice(i1, i2)) out += ' ' + line;
        continue;
      }
      if (tag === 'replace' || tag === 'delete') for (const line of a.slice(i1, i2)) out += '-' + line;
      if (tag === 'replace' || tag === 'insert') for (const line of b.slice(j1, j2)) out += '+' + line;
    }
  }
  return out;
}

function formatRange(start: number, stop: number): string {
  let beginning = start + 1;
  const length = stop - start;
  if (length === 1) return `${beginning}`;
  if (length === 0) beginning -= 1;
  return `${beginning},${length}`;
}

function groupedOpcodes(a: string[], b: string[], n: number): Opcode[][] {
  let codes = opcodes(a, b);
  if (codes.length === 0) codes = [['equal', 0, 1, 0, 1]];
  const head = codes[0] as Opcode;
  if (head[0] === 'equal') {
    codes[0] = ['equal', Math.max(head[1], head[2] - n), head[2], Math.max(head[3], head[4] - n), head[4]];
  }
  const tail = codes[codes.length - 1] as Opcode;
  if (tail[0] === 'equal') {
    codes[codes.length - 1] = [
      'equal',
      tail[1],
      Math.min(tail[2], tail[1] + n),
      tail[3],
      Math.min(tail[4], tail[3] + n),
    ];
  }
  const groups: Opcode[][] = [];
  let group: Opcode[] = [];
  for (const code of codes) {
    const [tag, , i2, , j2] = code;
    let [, i1, , j1] = code;
    if (tag === 'equal' && i2 - i1 > n + n) {
      group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
      groups.push(group);
      group = [];
      i1 = Math.max(i1, i2 - n);
      j1 = Math.max(j1, j2 - n);
    }
    group.push([tag, i1, i2, j1, j2]);
  }
  if (group.length > 0 && !(group.length === 1 && group[0]?.[0] === 'equal')) groups.push(group);
  return groups;
}

function opcodes(a: string[], b: string[]): Opcode[] {
  let i = 0;
  let j = 0;
  const answer: Opcode[] = [];
  for (const [ai, bj, size] of matchingBlocks(a, b)) {
    if (i < ai && j < bj) answer.push(['replace', i, ai, j, bj]);
    else if (i < ai) answer.push(['delete', i, ai, j, bj]);
    else if (j < bj) answer.push(['insert', i, ai, j, bj]);
    i = ai + size;
    j = bj + size;
    if (size > 0) answer.push(['equal', ai, i, bj, j]);
  }
  return answer;
}
