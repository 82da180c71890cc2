import type { ScoreRecord } from './score-record.js';
import type { TaskSpec } from './task.js';
import type { TrialItem } from './trial-item.js';

/**
 * One trial after scoring: the item as it came from the source, its score records (one per metric
 * that applies, in the task's metric order), and the task as it was scored: the source's task spec (or
 * a stub with only the id) whose `metrics` are the descriptors of the metrics actually applied and
 * whose `views` are the views that apply. Sinks write `task` to `tasks.jsonl` (first one per task id).
 */
export interface ScoredTrial {
  item: TrialItem;
  scores: ScoreRecord[];
  task: TaskSpec;
}
