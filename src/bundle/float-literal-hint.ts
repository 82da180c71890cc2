/**
 * Matches text that may hold a number literal written as a float yet integral (`1.0`, `2.50e3`,
 * `1e+16`). No match means every integral number in the text is an int literal. False positives
 * (e.g. inside strings) only cost a closer look.
 *
 * @example
 * FLOAT_LITERAL_HINT.test('{"v": 1.0}'); // true
 * FLOAT_LITERAL_HINT.test('{"v": 1, "w": 0.5}'); // false
 */
export const FLOAT_LITERAL_HINT = /[[:,]\s*-?\d+(?:\.0+[,\]}\s]|(?:\.\d+)?[eE])/;
