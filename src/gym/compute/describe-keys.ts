/** Precomputed `stat/field` key names of a frame's columns (see {@link describeColumns}). */
export interface DescribeKeys {
  mean: string[];
  max: string[];
  min: string[];
  median: string[];
  std: string[];
}

/**
 * The `mean/`, `max/`, `min/`, `median/`, `std/` key names of the columns `names`.
 *
 * @example
 * describeKeys(['reward']).mean; // ['mean/reward']
 */
export function describeKeys(names: readonly string[]): DescribeKeys {
  return {
    mean: names.map((n) => `mean/${n}`),
    max: names.map((n) => `max/${n}`),
    min: names.map((n) => `min/${n}`),
    median: names.map((n) => `median/${n}`),
    std: names.map((n) => `std/${n}`),
  };
}
