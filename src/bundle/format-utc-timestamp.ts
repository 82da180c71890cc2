/**
 * A UTC timestamp as pydantic writes an aware `datetime`: `YYYY-MM-DDTHH:MM:SSZ`, with six fraction
 * digits when there are sub-second parts.
 *
 * @example
 * formatUtcTimestamp(new Date('2026-07-15T09:30:12.123Z')); // '2026-07-15T09:30:12.123000Z'
 */
export function formatUtcTimestamp(date: Date): string {
  const iso = date.toISOString(); // 2026-07-15T09:30:12.123Z
  const ms = date.getUTCMilliseconds();
  return ms === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 23)}000Z`;
}
