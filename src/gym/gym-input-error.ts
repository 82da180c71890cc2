import type { GymRowErrorCode } from './rows/gym-row-error.js';

/** Kinds of input problems of `gym aggregate` / `gym profile` (the row problems among them). */
export type GymInputErrorCode =
  | GymRowErrorCode
  | 'no_match'
  | 'unreadable'
  | 'duplicate_rollout'
  | 'unmatched_rollout'
  | 'missing_rollout'
  | 'bad_hooks'
  | 'bad_score'
  | 'too_wide';

/**
 * A problem with the inputs that makes the Gym computation untrustworthy, as data: a code, the file
 * and 1-based line (when about one line), the JSON field, and a message naming all of them.
 *
 * @example
 * new GymInputError('malformed_json', "Malformed JSON in 'a.jsonl' at line 3, column 9: …", { file: 'a.jsonl', line: 3 });
 */
export class GymInputError extends Error {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;

  constructor(
    readonly code: GymInputErrorCode,
    message: string,
    where: { file?: string; line?: number; field?: string } = {},
  ) {
    super(message);
    this.name = 'GymInputError';
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}
