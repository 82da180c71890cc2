import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskSpec } from '../model/task.js';
import { BUNDLE_FILES } from './bundle-files.js';
import { readJsonlRows } from './read-jsonl-rows.js';
import { rowSchemas } from './row-schemas.js';
import { appendAll } from '../util/append-all.js';

/**
 * Reads `tasks.jsonl` of a bundle (small: held in memory), or null when the bundle has none (the
 * summary is then computed without task specs).
 *
 * @example
 * const tasks = await readTaskSpecs(dir); // TaskSpec[] | null
 */
export async function readTaskSpecs(dir: string): Promise<TaskSpec[] | null> {
  const file = join(dir, BUNDLE_FILES.tasks);
  try {
    await access(file);
  } catch {
    return null;
  }
  const tasks: TaskSpec[] = [];
  for await (const batch of readJsonlRows(file, rowSchemas.task, {
    displayName: BUNDLE_FILES.tasks,
  })) {
    appendAll(tasks, batch.rows);
  }
  return tasks;
}
