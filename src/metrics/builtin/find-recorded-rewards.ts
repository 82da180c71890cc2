import type { JsonObject, JsonValue } from '../../model/json-value.js';

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The rewards a runner recorded in trial metadata, as name → value, or null when there are none.
 * Looked up, first hit wins: Harbor's `verifier_result.rewards` (a map), a `rewards` map, then a
 * scalar `reward` (Gym, and the SDK's Harbor/Gym reward metrics) as `{reward: value}`.
 *
 * @example
 * findRecordedRewards({ verifier_result: { rewards: { reward: 1 } } }); // { reward: 1 }
 * findRecordedRewards({ reward: 0.5 }); // { reward: 0.5 }
 */
export function findRecordedRewards(metadata: JsonObject): JsonObject | null {
  const verifier = metadata['verifier_result'];
  if (isObject(verifier) && isObject(verifier['rewards'])) return verifier['rewards'];
  if (isObject(metadata['rewards'])) return metadata['rewards'];
  const reward = metadata['reward'];
  if (reward !== undefined && reward !== null) return { reward };
  return null;
}
