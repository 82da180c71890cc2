/**
 * A JSON value as Python holds it after `orjson.loads`: `bigint` is a Python `int`, `number` a Python
 * `float`, so that `1` and `1.0` stay distinct when written back.
 *
 * @example
 * const v: PyJson = { num_rollouts: 2n, 'mean/reward': 1 }; // written {"num_rollouts":2,"mean/reward":1.0}
 */
export type PyJson = null | boolean | number | bigint | string | PyJson[] | PyJsonObject;

/** A JSON object of {@link PyJson} values (insertion order is the written key order). */
export type PyJsonObject = { [key: string]: PyJson };
