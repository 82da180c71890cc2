import { InvalidArgumentError } from 'commander';

/**
 * A commander option parser for a whole number of at least `min` (digits only).
 *
 * @example
 * command.option('--limit <n>', 'print at most N rows', intAtLeast(0));
 */
export function intAtLeast(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(`must be an integer >= ${min}`);
    return n;
  };
}
