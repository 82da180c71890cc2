/** Kinds of row problems the scanner reports. */
export type GymRowErrorCode =
  | 'malformed_json'
  | 'not_an_object'
  | 'bad_index'
  | 'missing_index'
  | 'bad_agent_ref'
  | 'bad_response'
  | 'bad_usage';

/**
 * A problem with one rollout row: `field` names the JSON field (empty for the whole line), `message`
 * says what is wrong, `column` (1-based, in characters) where in the line, when known. Loaders add the
 * file and line.
 *
 * @example
 * throw new GymRowError('bad_index', '_ng_task_index', '"_ng_task_index" must be an integer, got the string "3"');
 */
export class GymRowError extends Error {
  constructor(
    readonly code: GymRowErrorCode,
    readonly field: string,
    message: string,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'GymRowError';
  }
}
