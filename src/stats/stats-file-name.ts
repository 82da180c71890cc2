/**
 * Name of the statistics file in a run bundle, next to `summary.json` (which stays exactly SDK-shaped).
 *
 * @example
 * join(dir, STATS_FILE_NAME); // '<dir>/stats.json'
 */
export const STATS_FILE_NAME = 'stats.json';
