/** One problem in a config file: the zod-style path (`metrics.default[1].options.mode`) and the text. */
export interface ConfigProblem {
  path: string;
  message: string;
}

/**
 * A config that cannot be used: it names the file and every problem's path. The CLI prints it and
 * exits with code 2.
 *
 * @example
 * // evalstream.config.ts: metrics.default[0]: unknown built-in metric 'exact'; known: exact_match, ...
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'invalid_config';
  constructor(
    readonly file: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(problems.map((p) => `${file}: ${p.path === '' ? '(root)' : p.path}: ${p.message}`).join('\n'));
  }
}
