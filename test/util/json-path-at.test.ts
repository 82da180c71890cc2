import { describe, expect, it } from 'vitest';
import { formatJsonPath } from '../../src/util/format-json-path.js';
import { jsonPathAt } from '../../src/util/json-path-at.js';

const at = (text: string, marker: string): (string | number)[] =>
  jsonPathAt(Buffer.from(text), Buffer.from(text).indexOf(marker));

describe('jsonPathAt', () => {
  it('names the value a byte belongs to', () => {
    const text = '{"a":1,"b":[{"c":"x"},{"d":["y","HERE"]}],"e":{"f":"z"}}';
    expect(at(text, 'HERE')).toEqual(['b', 1, 'd', 1]);
    expect(at(text, 'z')).toEqual(['e', 'f']);
    expect(at(text, '1')).toEqual(['a']);
  });

  it('skips strings holding brackets, commas and escaped quotes', () => {
    const text = '{"k\\"[":"a,]}\\"{","n":[1,2,"HERE"]}';
    expect(at(text, 'HERE')).toEqual(['n', 2]);
  });

  it('reads escaped keys and works on bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('{"caf\\u00e9":["'), Buffer.from([0xff]), Buffer.from('"]}')]);
    expect(jsonPathAt(bytes, bytes.indexOf(0xff))).toEqual(['café', 0]);
  });

  it('formats paths as the decoders name fields', () => {
    expect(formatJsonPath(['resourceSpans', 0, 'scopeSpans', 2, 'spans', 1, 'name'])).toBe(
      'resourceSpans[0].scopeSpans[2].spans[1].name',
    );
    expect(formatJsonPath([0, 'scopeSpans'])).toBe('[0].scopeSpans');
    expect(formatJsonPath([])).toBe('');
  });
});
