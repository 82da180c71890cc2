/**
 * File names of a run bundle (spec §8), keyed as in `run.json`'s `artifacts` map.
 *
 * @example
 * join(dir, BUNDLE_FILES.scores); // '<dir>/scores.jsonl'
 */
export const BUNDLE_FILES = {
  metadata: 'metadata.json',
  tasks: 'tasks.jsonl',
  trials: 'trials.jsonl',
  scores: 'scores.jsonl',
  summary: 'summary.json',
  run: 'run.json',
  report: 'report.html',
} as const;
