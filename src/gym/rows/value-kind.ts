/**
 * What a scanned field value was. Numbers and booleans are "numeric" for Gym (booleans as 0/1 ints);
 * everything else counts as missing.
 *
 * @example
 * if (kind === VALUE_KIND.float || kind === VALUE_KIND.int) use(value);
 */
export const VALUE_KIND = {
  null: 0,
  float: 1,
  int: 2,
  string: 3,
  array: 4,
  object: 5,
} as const;
