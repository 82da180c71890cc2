import { rowSources } from '../bundle/row-sources.js';

/**
 * Marks a row copied from another thread as read from bundle text with these float paths (what
 * `floatPathsOf` took from the original), so it is written back byte for byte; null leaves it as a
 * row built in memory.
 *
 * @example
 * rememberFloatPaths(wire.trial, wire.floats);
 */
export function rememberFloatPaths(row: object, floats: readonly string[] | null): void {
  if (floats === null) return;
  rowSources.remember(row, '', floats.length === 0 ? null : new Set(floats));
}
