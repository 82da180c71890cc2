import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { bundleStats } from '../../src/stats/bundle-stats.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { ColumnarTaskValues } from '../../src/summary/columnar-task-values.js';
import { score } from '../summary/fixtures.js';

/** The columns of an untouched entry of a column-backed `task_metric_values`, else null. */
const columnsOf = (values: object, taskId: string) => ColumnarTaskValues.of(values)?.columns(taskId) ?? null;

describe('bundleStats over column-backed task values', () => {
  // Several trials per task (clustered interval), 0/1 values (Wilson), floats, booleans, labels.
  const scores: ScoreRecord[] = [];
  for (let t = 0; t < 12; t++)
    for (let r = 0; r < 3; r++)
      scores.push(
        score(`task-${t}`, `trial-${t}-${r}`, 'm', {
          reward: (t + r) % 2,
          quality: ((t * 7 + r * 3) % 10) / 3,
          passed: (t + r) % 3 === 0,
          grade: t % 2 === 0 ? 'A' : 'B',
        }),
      );

  it('reads the columns without building records, and equals the figures from plain records', () => {
    const summary = buildSummary({ scores });
    const firstTask = Object.keys(summary.task_metric_values)[0] as string;
    expect(columnsOf(summary.task_metric_values, firstTask)).not.toBeNull();

    const fromColumns = bundleStats(summary);
    // the columns were read, not the lazy record lists
    expect(columnsOf(summary.task_metric_values, firstTask)).not.toBeNull();

    const plain = JSON.parse(JSON.stringify(summary)) as typeof summary;
    expect(columnsOf(plain.task_metric_values, firstTask)).toBeNull();
    const fromRecords = bundleStats(plain);

    expect(fromColumns).toEqual(fromRecords);
    const reward = fromColumns.aggregates.find((a) => a.name === 'm.reward');
    expect(reward?.intervals.map((i) => i.method)).toEqual(['student_t', 'clustered_t', 'wilson']);
    expect(reward?.n).toBe(36);
    expect(reward?.tasks).toBe(12);
  });
});
