/**
 * Rows parsed from bundle text, mapped to the paths of their integral float literals (`1.0`), or null
 * when they had none. A row present here came from a file, so its numbers' JSON types are known
 * exactly; a row absent here was built in memory and the writers fall back to schema knowledge.
 *
 * @example
 * textFloatPaths.set(row, parsed.floatPaths);
 * pythonJson(row, { floatPaths: textFloatPaths.get(row) ?? null });
 */
export const textFloatPaths = new WeakMap<object, ReadonlySet<string> | null>();
