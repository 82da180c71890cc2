import { floatPathKey } from '../pycompat/float-path-key.js';
import { mayHaveIntegralFloat } from '../pycompat/may-have-integral-float.js';
import { parsePythonJson } from '../pycompat/parse-python-json.js';
import { quotePyJsonString } from '../pycompat/quote-py-json-string.js';

const SDK_SCORE_START = '{"diagnostics": [';
const prefixes = new Map<string, string>();

function isFirstOfName(outputs: readonly { name: string }[], index: number, name: string): boolean {
  for (let j = 0; j < index; j++) if ((outputs[j] as { name: string }).name === name) return false;
  return true;
}

/**
 * Whether `outputs[index].value` of a score row (an integral number) was written as a float in the
 * line it was parsed from. For lines in the SDK's own format (sorted keys, `", "` / `": "`) it finds
 * the output's `{"name": <name>, "value": <literal>}` text directly when that is unambiguous;
 * otherwise it parses the line with `parsePythonJson` (unless `mayHaveIntegralFloat` rules floats out).
 *
 * @example
 * outputLiteralIsFloat(row, 0, '{"diagnostics": [], ..., "outputs": [{"name": "reward", "value": 1.0}], ...}'); // true
 */
export function outputLiteralIsFloat(
  row: { outputs: readonly { name: string; value: unknown }[] },
  index: number,
  text: string,
): boolean {
  const output = row.outputs[index];
  const name = output?.name;
  if (name !== undefined && text.startsWith(SDK_SCORE_START) && isFirstOfName(row.outputs, index, name)) {
    let prefix = prefixes.get(name);
    if (prefix === undefined) {
      prefix = `{"name": ${quotePyJsonString(name, true)}, "value": `;
      if (prefixes.size < 10_000) prefixes.set(name, prefix);
    }
    const at = text.indexOf(prefix);
    if (at >= 0 && text.indexOf(prefix, at + prefix.length) < 0) {
      const start = at + prefix.length;
      let end = start;
      for (;;) {
        const c = text.charCodeAt(end);
        if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45)
          end++;
        else break;
      }
      const next = text.charCodeAt(end);
      if (end > start && (next === 0x7d || next === 0x2c)) {
        const literal = text.slice(start, end);
        if (Number(literal) === output?.value) {
          return literal.includes('.') || literal.includes('e') || literal.includes('E');
        }
      }
    }
  }
  if (!mayHaveIntegralFloat(text)) return false;
  const parsed = parsePythonJson(text);
  return (
    parsed.ok &&
    parsed.floatPaths !== null &&
    parsed.floatPaths.has(floatPathKey(['outputs', index, 'value']))
  );
}
