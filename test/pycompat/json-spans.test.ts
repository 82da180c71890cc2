import { describe, expect, it } from 'vitest';
import { JsonSpans } from '../../src/pycompat/json-spans.js';

const texts = (text: string, spans: number[], step: number): string[][] => {
  const out: string[][] = [];
  for (let k = 0; k < spans.length; k += step) {
    const row: string[] = [];
    for (let j = 0; j < step; j += 2) row.push(text.slice(spans[k + j], spans[k + j + 1]));
    out.push(row);
  }
  return out;
};

describe('JsonSpans', () => {
  it('gives each member key and value text, in written order, whatever the strings hold', () => {
    const text = '{ "b" : 1.50 , "s":"a\\\\\\"}]{[,","2":[1,{"x":"}"}],"o":{ } ,"n":null}';
    const spans = new JsonSpans();
    expect(texts(text, spans.members(text, 0), 4)).toEqual([
      ['"b"', '1.50'],
      ['"s"', '"a\\\\\\"}]{[,"'],
      ['"2"', '[1,{"x":"}"}]'],
      ['"o"', '{ }'],
      ['"n"', 'null'],
    ]);
    expect(spans.sawWhitespace).toBe(true);
  });

  it('reads a chosen nested object in the same pass, and array items', () => {
    const text = '{"r":{"u":{"t":4},"v":-1e-3},"a":[ 1 , "x" ,[]]}';
    const spans = new JsonSpans();
    const top = spans.members(text, 0, (s, e) => text.slice(s, e) === '"r"');
    expect(texts(text, spans.nested ?? [], 4)).toEqual([
      ['"u"', '{"t":4}'],
      ['"v"', '-1e-3'],
    ]);
    expect(texts(text, spans.items(text, top[6] as number), 2)).toEqual([['1'], ['"x"'], ['[]']]);
    spans.reset();
    spans.members('{"a":[1,{"b":"c d"}]}', 0);
    expect(spans.sawWhitespace).toBe(false);
  });
});
