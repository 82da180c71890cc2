/**
 * One piece of a run's input that a scoring worker reads on its own: a slice of the ATIF files (with
 * the trial-id counts the files before it left, so repeated trajectory ids number on as in one
 * pass), a slice of a Harbor job's trial directories (`names`; null: the whole directory), a whole
 * run bundle, all the Gym rollout files (their duplicate check spans every file), or all the OTLP
 * files (their spans are grouped into trials across files).
 */
export type WorkChunk =
  | { kind: 'atif'; files: string[]; trialIdCounts: [string, number][] }
  | { kind: 'harbor'; dir: string; names: string[] | null }
  | { kind: 'bundle'; dir: string }
  | { kind: 'gym'; files: string[] }
  | { kind: 'otlp'; files: string[] };
