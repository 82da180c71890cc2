/**
 * The row indices `0 … count-1` sorted by (task, rollout), equal keys in row order: Gym's row order
 * (a stable sort by `_ng_task_index`, then `_ng_rollout_index`). Task and rollout indices are safe
 * integers. When (task, rollout, row) packs into one exact double — the spans of the tasks and of
 * the rollouts times the row count stay below 2^53, as they do for any real run — the packed keys
 * are sorted numerically (native, no comparator call per comparison); otherwise a comparator sort
 * gives the same order.
 *
 * @example
 * taskRolloutOrder(Float64Array.of(2, 1, 1), Float64Array.of(0, 1, 0), 3); // Int32Array [2, 1, 0]
 */
export function taskRolloutOrder(task: Float64Array, rollout: Float64Array, count: number): Int32Array {
  const order = new Int32Array(count);
  if (count === 0) return order;
  let tLo = Infinity;
  let tHi = -Infinity;
  let rLo = Infinity;
  let rHi = -Infinity;
  for (let i = 0; i < count; i++) {
    const t = task[i] as number;
    const r = rollout[i] as number;
    if (t < tLo) tLo = t;
    if (t > tHi) tHi = t;
    if (r < rLo) rLo = r;
    if (r > rHi) rHi = r;
  }
  const rSpan = rHi - rLo + 1;
  const keys = (tHi - tLo + 1) * rSpan;
  if (keys * count <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      packed[i] = (((task[i] as number) - tLo) * rSpan + ((rollout[i] as number) - rLo)) * count + i;
    }
    packed.sort();
    for (let i = 0; i < count; i++) order[i] = (packed[i] as number) % count;
    return order;
  }
  for (let i = 0; i < count; i++) order[i] = i;
  return order.sort(
    (a, b) =>
      (task[a] as number) - (task[b] as number) || (rollout[a] as number) - (rollout[b] as number) || a - b,
  );
}
