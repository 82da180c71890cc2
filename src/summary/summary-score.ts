import type { AggregateScore, Summary } from '../model/summary.js';
import { AggregateNotFoundError } from './aggregate-not-found-error.js';
import { closeMatches } from './close-matches.js';
import { pyRepr } from '../pycompat/py-repr.js';

const LISTED = 10;

/**
 * The first aggregate named `name` (the SDK's `summary.score(name)`; first-wins on duplicates).
 * Throws `AggregateNotFoundError` when there is none, whose message suggests close names
 * ("did you mean", with how many other aggregates exist), or else lists up to 10 names then
 * "(N more)", or says the result has no aggregates at all.
 *
 * @example
 * summaryScore(summary, 'harbor_reward.reward').mean; // 0.5
 * summaryScore(summary, 'harbor_reward.rewrad'); // throws: no aggregate named 'harbor_reward.rewrad'; did you mean 'harbor_reward.reward'? ...
 */
export function summaryScore(summary: Pick<Summary, 'scores'>, name: string): AggregateScore {
  const rows = summary.scores.scores;
  for (const row of rows) if (row.name === name) return row;
  const names = [...new Set(rows.map((r) => r.name))];
  const asked = `no aggregate named ${pyRepr(name)}`;
  if (names.length === 0) {
    throw new AggregateNotFoundError(`${asked}: this result has no aggregates at all`, name, []);
  }
  const suggestions = closeMatches(name, names);
  if (suggestions.length > 0) {
    const others = names.length - suggestions.length;
    const tally = others === 0 ? '' : ` (${others} other aggregate${others === 1 ? '' : 's'} in this result)`;
    const offered = suggestions.map((name) => pyRepr(name)).join(', ');
    throw new AggregateNotFoundError(`${asked}; did you mean ${offered}?${tally}`, name, suggestions);
  }
  const listed = names
    .slice(0, LISTED)
    .map((name) => pyRepr(name))
    .join(', ');
  const more = names.length > LISTED ? ` (${names.length - LISTED} more)` : '';
  throw new AggregateNotFoundError(`${asked}; available aggregates: ${listed}${more}`, name, []);
}
