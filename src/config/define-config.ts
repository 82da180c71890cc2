import type { EvalstreamConfigInput } from './evalstream-config.js';

/**
 * Types an `evalstream.config.ts` (identity at runtime).
 *
 * @example
 * export default defineConfig({ metrics: { default: ['exact_match', { name: 'contains', options: { mode: 'any' } }] } });
 */
export function defineConfig(config: EvalstreamConfigInput): EvalstreamConfigInput {
  return config;
}
