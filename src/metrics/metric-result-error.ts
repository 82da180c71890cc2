/**
 * Why a metric's result was refused (spec §3.3). `exceptionType` is the Python class the SDK raises
 * (`ValueError` for name problems, `ValidationError` for values and shape); it becomes the failed
 * score's `details.exception_type`. `message` is the SDK's text.
 *
 * @example
 * new MetricResultError('missing_required', 'ValueError', "Missing required metric outputs: ['score']");
 */
export class MetricResultError extends Error {
  override readonly name = 'MetricResultError';
  constructor(
    /** `invalid_result` | `duplicate_outputs` | `missing_required` | `undeclared_outputs` | `invalid_value`. */
    readonly code: string,
    readonly exceptionType: 'ValueError' | 'ValidationError',
    message: string,
  ) {
    super(message);
  }
}
