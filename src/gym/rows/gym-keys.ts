import { KeyInterner } from '../json/key-interner.js';

/**
 * Creates the key interner for rollout rows with the keys Gym treats specially at fixed ids
 * (`GYM_KEY` gives them), so the row scanner can switch on ids instead of strings.
 *
 * @example
 * const keys = createGymKeys(); keys.names[GYM_KEY.reward]; // 'reward'
 */
export function createGymKeys(): KeyInterner {
  const keys = new KeyInterner();
  for (const name of GYM_KEY_NAMES) keys.idOfString(name);
  return keys;
}

/** Special keys, in id order. The last four are the heavy keys the collector cuts. */
export const GYM_KEY_NAMES = [
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

/** Fixed ids of {@link GYM_KEY_NAMES} in every interner made by {@link createGymKeys}. */
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
