/**
 * Thrown by `summaryScore` for a name no aggregate has: the SDK's `KeyError` from
 * `AgentEvalSummary.score(name)`, with the same message text (`name` is `'KeyError'`).
 *
 * @example
 * try { summaryScore(summary, 'x'); } catch (e) { if (e instanceof AggregateNotFoundError) console.log(e.suggestions); }
 */
export class AggregateNotFoundError extends Error {
  override readonly name = 'KeyError';
  readonly code = 'aggregate_not_found';

  constructor(
    message: string,
    /** The name that was asked for. */
    readonly requested: string,
    /** Close names offered ("did you mean"), best first; empty when none were close. */
    readonly suggestions: readonly string[],
  ) {
    super(message);
  }
}
