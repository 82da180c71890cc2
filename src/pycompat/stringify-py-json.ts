import type { PyJson } from './py-json.js';
import { quotePyJsonString } from './quote-py-json-string.js';
import { serializePyJson, type StringifyPyJsonOptions } from './serialize-py-json.js';

/**
 * Serializes a {@link PyJson} value like Python does (see {@link serializePyJson}) into one string.
 *
 * @example
 * stringifyPyJson({ n: 2n, mean: 1 }); // '{"n":2,"mean":1.0}'
 * stringifyPyJson({ a: 1 }, { indent: 4, floats: 'repr' }); // json.dumps(…, indent=4)
 */
export function stringifyPyJson(value: PyJson, options: StringifyPyJsonOptions = {}): string {
  const parts: string[] = [];
  const ascii = options.ensureAscii ?? false;
  serializePyJson(value, options, {
    raw: (t) => parts.push(t),
    str: (v) => parts.push(quotePyJsonString(v, ascii)),
  });
  return parts.join('');
}
