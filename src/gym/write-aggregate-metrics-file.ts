import { closeSync, openSync } from 'node:fs';
import type { GymAgentAggregate } from './compute/compute-agent-aggregate.js';
import type { GymGroupLevels } from './compute/gym-group-levels.js';
import type { PyJson } from '../pycompat/py-json.js';
import { PyJsonFileWriter } from '../pycompat/py-json-file-writer.js';
import type { RolloutTable } from './rows/rollout-table.js';

/**
 * Writes `_aggregate_metrics.json` (orjson `OPT_INDENT_2`, no trailing newline): the same text as
 * `writePyJsonFile(path, agents, { indent: 2 })`, but the group entries of `agents[i]` that
 * `lazyGroups[i]` attached and nobody has read yet are streamed from the frame
 * ({@link GymGroupLevels.write}) instead of being built as objects first.
 *
 * @example
 * writeAggregateMetricsFile('results/rollouts_aggregate_metrics.json', agents, lazyGroups);
 */
export function writeAggregateMetricsFile(
  path: string,
  agents: readonly GymAgentAggregate[],
  lazyGroups: readonly (GymGroupLevels | null)[] = [],
): void {
  const fd = openSync(path, 'w');
  try {
    const w = new PyJsonFileWriter(fd, 2, 'orjson', false);
    if (agents.length === 0) w.ascii('[]');
    else {
      w.byte(0x5b);
      // whether a table's group entries can be streamed reads every item of the table: asked once
      // per table, not once per agent (agents of a run share one table)
      const streamable = new Map<RolloutTable, boolean>();
      const canStream = (groups: GymGroupLevels): boolean => {
        let ok = streamable.get(groups.table);
        if (ok === undefined) streamable.set(groups.table, (ok = groups.canWrite()));
        return ok;
      };
      agents.forEach((agent, i) => {
        if (i > 0) w.byte(0x2c);
        w.pad(1);
        const keys = Object.keys(agent);
        w.byte(0x7b);
        keys.forEach((k, j) => {
          w.bytes(w.memberPrefix(k, 2, j === 0));
          const lazy = k === 'group_level_metrics' ? lazyGroups[i] : null;
          if (lazy && !lazy.read && canStream(lazy)) lazy.write(w, 2);
          else w.value((agent as unknown as Record<string, PyJson>)[k] as PyJson, 2);
        });
        w.pad(1);
        w.byte(0x7d);
      });
      w.pad(0);
      w.byte(0x5d);
    }
    w.flush();
  } finally {
    closeSync(fd);
  }
}
