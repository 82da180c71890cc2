import { rowSources } from '../bundle/row-sources.js';

/**
 * The float paths of a row read from bundle text (see `rowSources`), as a list that crosses threads;
 * null when the row was not read from text. `rememberFloatPaths` gives them to the copy.
 *
 * @example
 * const floats = floatPathsOf(item.trial); // ['metadata\u0000score'] for a `"score": 1.0`
 */
export function floatPathsOf(row: object): string[] | null {
  if (!rowSources.isFromText(row)) return null;
  return [...(rowSources.floatPaths(row) ?? [])];
}
