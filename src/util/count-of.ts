/**
 * A count and its noun, singular for one: for messages people read.
 *
 * @example
 * countOf(1, 'trial'); // '1 trial'
 * countOf(3, 'trial'); // '3 trials'
 */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
