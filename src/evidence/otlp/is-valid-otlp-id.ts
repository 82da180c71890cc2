const HEX_16 = /^[0-9a-f]{16}$/;
const HEX_32 = /^[0-9a-f]{32}$/;
const ZERO_16 = '0'.repeat(16);
const ZERO_32 = '0'.repeat(32);

/**
 * Whether a decoded trace id (`byteLength` 16) or span id (8) is valid in OTLP: exactly that many
 * bytes (lowercase hex, as every decode path gives ids) and not all zero. An empty id, a JSON id of
 * the wrong length and an all-zero id are invalid.
 *
 * @example
 * isValidOtlpId('5b8efff798038103d269b633813fc60c', 16); // true
 * isValidOtlpId('', 8); // false
 */
export function isValidOtlpId(id: string, byteLength: 8 | 16): boolean {
  return byteLength === 16 ? id !== ZERO_32 && HEX_32.test(id) : id !== ZERO_16 && HEX_16.test(id);
}
