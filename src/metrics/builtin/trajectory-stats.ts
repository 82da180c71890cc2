import { requireTrajectory } from '../../evidence/require-trajectory.js';
import type { Metric } from '../../model/metric.js';
import { discreteScore } from '../output-specs.js';

/**
 * `trajectory_stats`: counts read from the trace through `TrajectoryView` (ATIF or OTLP): `steps`
 * (ATIF steps / OTLP spans), `tool_calls`, `tool_errors` (calls flagged as errors) and `turns` (user
 * turns / agent invocations). Fails when the trial has no trace.
 *
 * @example
 * const m = trajectoryStats();
 * // NAT exmp02 sample → { steps: 3, tool_calls: 1, tool_errors: 0, turns: 1 }
 */
export function trajectoryStats(options: { type?: string } = {}): Metric {
  // declared once per metric; each call hands out a fresh array of the same frozen specs
  const specs = [
    discreteScore('steps'),
    discreteScore('tool_calls'),
    discreteScore('tool_errors'),
    discreteScore('turns'),
  ];
  return {
    type: options.type ?? 'trajectory_stats',
    outputSpec: () => specs.slice(),
    computeScores: async (input) => {
      const view = await requireTrajectory(input.candidate.evidence);
      const calls = view.normalizedToolCalls();
      let errors = 0;
      for (const c of calls) if (c.isError) errors += 1;
      return {
        outputs: [
          { name: 'steps', value: view.stepCount() },
          { name: 'tool_calls', value: calls.length },
          { name: 'tool_errors', value: errors },
          { name: 'turns', value: view.turnCount() },
        ],
      };
    },
  };
}
