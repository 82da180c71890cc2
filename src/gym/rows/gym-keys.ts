import { StringIds } from './string-ids.js';

/** Special keys, in id order. The last four are the heavy keys the collector cuts. */
const GYM_KEY_NAMES = [
  '_ng_task_index',
  '_ng_rollout_index',
  'agent_ref',
  'response',
  'usage',
  'name',
  'reward',
  'responses_create_params',
  'ng_agent_observations',
  'ng_model_call_capture',
  'ng_trajectory',
] as const;

/** Fixed ids of the keys Gym treats specially, in every {@link GymKeys}. */
export const GYM_KEY = {
  task: 0,
  rollout: 1,
  agentRef: 2,
  response: 3,
  usage: 4,
  name: 5,
  reward: 6,
  /** Ids >= firstHeavy and <= lastHeavy are the heavy keys. */
  firstHeavy: 7,
  lastHeavy: 10,
} as const;

/**
 * Field names of rollout rows as small integer ids (so that per-row data fits typed arrays), with the
 * keys Gym treats specially at the fixed ids of {@link GYM_KEY}.
 *
 * @example
 * const keys = new GymKeys(); keys.idOf('reward'); // GYM_KEY.reward
 * keys.names[keys.idOf('judge_score')]; // 'judge_score'
 */
export class GymKeys extends StringIds {
  constructor() {
    super();
    for (const name of GYM_KEY_NAMES) this.idOf(name);
  }
}
