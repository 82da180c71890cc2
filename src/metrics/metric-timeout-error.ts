/**
 * A metric did not finish within the scoring timeout; scored as a metric failure with
 * `details.exception_type = 'TimeoutError'` (the class asyncio raises).
 *
 * @example
 * new MetricTimeoutError('judge', 30000).message; // "metric 'judge' timed out after 30000 ms"
 */
export class MetricTimeoutError extends Error {
  override readonly name = 'MetricTimeoutError';
  readonly exceptionType = 'TimeoutError';
  constructor(
    readonly metricType: string,
    readonly timeoutMs: number,
  ) {
    super(`metric '${metricType}' timed out after ${timeoutMs} ms`);
  }
}
