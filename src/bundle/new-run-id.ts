import { randomUUID } from 'node:crypto';

/**
 * A run id in the SDK's format: `agent-eval-` + UTC `YYYYMMDDHHMMSS` + `-` + the first 8 hex digits
 * of a random UUID4.
 *
 * @example
 * newRunId(new Date('2026-07-15T09:30:12Z')); // 'agent-eval-20260715093012-1a2b3c4d'
 */
export function newRunId(now: Date = new Date(), uuid: () => string = randomUUID): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:T]/g, '');
  return `agent-eval-${stamp}-${uuid().replace(/-/g, '').slice(0, 8).toLowerCase()}`;
}
