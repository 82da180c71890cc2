import type { TrialMeasurements } from './trial.js';

/** Token usage and costs as a source reads them; null = not reported. */
export interface UsageFigures {
  input: number | null;
  output: number | null;
  cached: number | null;
  /** Reported total; default input + output when both are known. */
  total?: number | null;
  cacheCreation?: number | null;
  costUsd?: number | null;
  runtimeSec?: number | null;
}

/**
 * A trial's measurements from the usage its source reports: what was not reported stays null (never 0).
 *
 * @example
 * measurementsFromUsage({ input: 250, output: 50, cached: 120 }).total_tokens; // 300
 */
export function measurementsFromUsage(u: UsageFigures): TrialMeasurements {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.total ?? (u.input !== null && u.output !== null ? u.input + u.output : null),
    cache_creation_tokens: u.cacheCreation ?? null,
    cache_read_tokens: u.cached,
    runtime_sec: u.runtimeSec ?? null,
    cost_usd: u.costUsd ?? null,
  };
}
