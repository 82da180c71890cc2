/**
 * Compiles a pathlib-style glob over relative posix paths: `*` and `?` stay within one segment,
 * `[...]`/`[!...]` are character classes, and a `**` segment matches zero or more directories.
 *
 * @example
 * globToRegExp('**\/*.py').test('src/a.py'); // true
 * globToRegExp('*.py').test('src/a.py'); // false
 */
export function globToRegExp(pattern: string): RegExp {
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  let re = '';
  segments.forEach((seg, idx) => {
    const last = idx === segments.length - 1;
    if (seg === '**') {
      re += last ? '(?:[^/]+(?:/[^/]+)*)?' : '(?:[^/]+/)*';
      return;
    }
    re += segmentRegExp(seg) + (last ? '' : '/');
  });
  return new RegExp(`^${re}$`, 'u');
}

function segmentRegExp(seg: string): string {
  let out = '';
  for (let i = 0; i < seg.length; i += 1) {
    const c = seg[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        const negate = body.startsWith('!');
        if (negate) body = body.slice(1);
        out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return out;
}
