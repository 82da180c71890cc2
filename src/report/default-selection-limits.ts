import type { SelectionLimits } from './trajectory-selection.js';

/**
 * How many trials keep their drill-down detail in a report by default: failed or errored trials
 * (first come), then a deterministic sample of the others (see `TrajectorySelection`).
 *
 * @example
 * new TrajectorySelection(DEFAULT_SELECTION_LIMITS);
 */
export const DEFAULT_SELECTION_LIMITS: Readonly<SelectionLimits> = { failed: 200, sample: 100 };
