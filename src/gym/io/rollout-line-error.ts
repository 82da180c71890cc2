import { GymInputError, type GymInputErrorCode } from '../gym-input-error.js';

/** The parts of a per-line input error, so that it can be rebuilt with another line number. */
export interface RolloutLineErrorParts {
  code: GymInputErrorCode;
  /** `Malformed JSON` or `Bad rollout` / `Bad materialized input`. */
  prefix: string;
  path: string;
  line: number;
  detail: string;
  column?: number | undefined;
  field?: string | undefined;
}

/**
 * A {@link GymInputError} about one line: `<prefix> in '<path>' at line N[, column C]: <detail>`. The
 * parts are kept on the error (`parts`) so a worker can send them and the reader rebuild the message
 * with the line number in the whole file.
 *
 * @example
 * throw rolloutLineError({ code: 'malformed_json', prefix: 'Malformed JSON', path, line: 3, detail: 'empty line' });
 */
export function rolloutLineError(
  parts: RolloutLineErrorParts,
): GymInputError & { parts: RolloutLineErrorParts } {
  const col = parts.column === undefined ? '' : `, column ${parts.column}`;
  const error = new GymInputError(
    parts.code,
    `${parts.prefix} in '${parts.path}' at line ${parts.line}${col}: ${parts.detail}`,
    {
      file: parts.path,
      line: parts.line,
      ...(parts.field === undefined ? {} : { field: parts.field }),
    },
  ) as GymInputError & { parts: RolloutLineErrorParts };
  Object.defineProperty(error, 'parts', { value: parts, enumerable: false });
  return error;
}
