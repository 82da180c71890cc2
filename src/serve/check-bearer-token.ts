import { timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization` header carries the expected bearer token (constant-time compare).
 * With no configured token every request passes.
 *
 * @example
 * checkBearerToken('Bearer s3cret', 's3cret'); // true
 */
export function checkBearerToken(header: string | undefined, expected: string | null): boolean {
  if (expected === null) return true;
  if (header === undefined) return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'utf8');
  const want = Buffer.from(expected, 'utf8');
  return given.length === want.length && timingSafeEqual(given, want);
}
