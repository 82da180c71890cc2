import { floatPathKey } from '../pycompat/float-path-key.js';
import { mayHaveIntegralFloat } from '../pycompat/may-have-integral-float.js';
import { parsePythonJson } from '../pycompat/parse-python-json.js';
import { outputLiteralIsFloat } from './output-literal-is-float.js';

type Remap = (raw: unknown, paths: Set<string>) => Set<string>;

interface RowSource {
  /** The line, kept only while its float paths are not computed yet. */
  text: string | null;
  /** Paths of integral float literals; undefined = not computed yet. */
  paths: ReadonlySet<string> | null | undefined;
  remap: Remap | null;
}

/** The property of a row read from text that holds its {@link RowSource} (not enumerable, not copied by spreading). */
const SOURCE = Symbol('rowSource');

function sourceOf(row: object): RowSource | undefined {
  return (row as { [SOURCE]?: RowSource })[SOURCE];
}

function attach(row: object, source: RowSource): void {
  Object.defineProperty(row, SOURCE, { value: source, writable: true, configurable: true });
}
const OUTPUT_VALUE_KEYS = Array.from({ length: 16 }, (_, i) => floatPathKey(['outputs', i, 'value']));

/**
 * Which rows came from bundle text, and where that text wrote integral numbers as floats (`1.0`).
 * The row carries it in a non-enumerable property (copies made by spreading are rows built in memory).
 * Writers use it to reproduce a row byte for byte; rows built in memory have none and fall back to
 * schema knowledge. Float paths are computed lazily: a line without any float-looking literal is
 * known to have none, other lines keep their text until a writer asks.
 *
 * @example
 * rowSources.remember(row, line);
 * pythonJson(scoreToWire(row), { floatPaths: rowSources.floatPaths(row) });
 */
export const rowSources = {
  /** Records that `row` was read from `text` (with its float paths when already known). */
  remember(row: object, text: string, paths?: ReadonlySet<string> | null, remap?: Remap): void {
    if (paths !== undefined) attach(row, { text: null, paths: paths, remap: null });
    else if (mayHaveIntegralFloat(text)) attach(row, { text, paths: undefined, remap: remap ?? null });
    else attach(row, { text: null, paths: null, remap: null });
  },

  /** Whether `row` was read from a bundle (its numbers' JSON types are then known exactly). */
  isFromText(row: object): boolean {
    return sourceOf(row) !== undefined;
  },

  /** Paths of the integral float literals of a row read from text; null when none or not from text. */
  floatPaths(row: object): ReadonlySet<string> | null {
    const source = sourceOf(row);
    if (source === undefined) return null;
    return resolvePaths(source);
  },

  /**
   * For a row read from text: whether `outputs[index].value` (an integral number) was written as a
   * float (see `outputLiteralIsFloat`); undefined when the row was not read from text.
   */
  outputValueIsFloat(
    row: { outputs: readonly { name: string; value: unknown }[] },
    index: number,
  ): boolean | undefined {
    const source = sourceOf(row);
    if (source === undefined) return undefined;
    if (source.paths !== undefined) return source.paths?.has(outputKey(index)) ?? false;
    return outputLiteralIsFloat(row, index, source.text as string);
  },
} as const;

function outputKey(index: number): string {
  return OUTPUT_VALUE_KEYS[index] ?? floatPathKey(['outputs', index, 'value']);
}

function resolvePaths(source: RowSource): ReadonlySet<string> | null {
  if (source.paths !== undefined) return source.paths;
  const parsed = parsePythonJson(source.text as string);
  let paths: Set<string> | null = parsed.ok ? parsed.floatPaths : null;
  if (paths !== null && source.remap !== null && parsed.ok) paths = source.remap(parsed.value, paths);
  source.paths = paths;
  source.text = null;
  return paths;
}
