import type { MetricOutput } from '../../model/score-record.js';
import type { Metric } from '../../model/metric.js';
import { continuousScore, discreteScore } from '../output-specs.js';

/**
 * `token_usage`: the trial's token totals from its primary trace (`TrajectoryView.normalizedTokenUsage`,
 * each logical model call counted once), falling back to the trial's measurements when it has no
 * trace. Outputs `input_tokens`, `output_tokens`, `total_tokens` (= input + output), `cached_tokens`
 * and `cost_usd`; all optional, omitted when not reported (never filled with 0).
 *
 * @example
 * const m = tokenUsage();
 * // fast-agent sample (final_metrics 250/50/120) → input 250, output 50, total 300, cached 120
 */
export function tokenUsage(options: { type?: string } = {}): Metric {
  // declared once per metric; each call hands out a fresh array of the same frozen specs
  const specs = [
    discreteScore('input_tokens', { required: false }),
    discreteScore('output_tokens', { required: false }),
    discreteScore('total_tokens', { required: false }),
    discreteScore('cached_tokens', { required: false }),
    continuousScore('cost_usd', { required: false }),
  ];
  return {
    type: options.type ?? 'token_usage',
    outputSpec: () => specs.slice(),
    computeScores: async (input) => {
      const evidence = input.candidate.evidence;
      let usage: { input: number | null; output: number | null; cached: number | null; cost: number | null };
      if (evidence !== null && evidence.get('trace') !== null) {
        const u = (await evidence.trace()).normalizedTokenUsage();
        usage = { input: u.input, output: u.output, cached: u.cached, cost: u.costUsd };
      } else {
        const m = input.row.data.trial.measurements;
        usage = {
          input: m.prompt_tokens,
          output: m.completion_tokens,
          cached: m.cache_read_tokens,
          cost: m.cost_usd,
        };
      }
      const outputs: MetricOutput[] = [];
      if (usage.input !== null) outputs.push({ name: 'input_tokens', value: usage.input });
      if (usage.output !== null) outputs.push({ name: 'output_tokens', value: usage.output });
      if (usage.input !== null && usage.output !== null) {
        outputs.push({ name: 'total_tokens', value: usage.input + usage.output });
      }
      if (usage.cached !== null) outputs.push({ name: 'cached_tokens', value: usage.cached });
      if (usage.cost !== null) outputs.push({ name: 'cost_usd', value: usage.cost });
      return { outputs };
    },
  };
}
