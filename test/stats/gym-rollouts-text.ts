/**
 * A Gym rollouts file (JSONL) with `rewards[task][repeat]` as rewards: one row per (task, repeat), a
 * minimal Responses API answer and usage, in task-major order unless `order` lists [task, repeat]
 * pairs.
 *
 * @example
 * writeFileSync(file, gymRolloutsText([[1, 0], [1, 1]]));
 */
export function gymRolloutsText(
  rewards: readonly (readonly (number | boolean)[])[],
  order?: readonly (readonly [number, number])[],
): string {
  const pairs = order ?? rewards.flatMap((row, task) => row.map((_, repeat) => [task, repeat] as const));
  return pairs
    .map(([task, repeat]) => {
      const reward = rewards[task]?.[repeat];
      if (reward === undefined) throw new Error(`no reward for task ${task} repeat ${repeat}`);
      return JSON.stringify({
        responses_create_params: { input: [{ role: 'user', content: `task ${task}` }] },
        response: {
          id: `resp_${task}_${repeat}`,
          object: 'response',
          status: 'completed',
          output: [
            {
              type: 'message',
              id: `msg_${task}_${repeat}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: `answer ${task}.${repeat}`, annotations: [] }],
            },
          ],
          usage: { input_tokens: 10 + task, output_tokens: 5 + repeat, total_tokens: 15 + task + repeat },
        },
        reward,
        _ng_task_index: task,
        _ng_rollout_index: repeat,
      });
    })
    .map((line) => line + '\n')
    .join('');
}
