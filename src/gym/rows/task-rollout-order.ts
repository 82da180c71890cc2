/**
 * The row indices `0 … count-1` sorted by (task, rollout), equal keys in row order: Gym's row order
 * (a stable sort by `_ng_task_index`, then `_ng_rollout_index`).
 *
 * @example
 * taskRolloutOrder(Float64Array.of(2, 1, 1), Float64Array.of(0, 1, 0), 3); // Int32Array [2, 1, 0]
 */
export function taskRolloutOrder(task: Float64Array, rollout: Float64Array, count: number): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  return order.sort(
    (a, b) =>
      (task[a] as number) - (task[b] as number) || (rollout[a] as number) - (rollout[b] as number) || a - b,
  );
}
