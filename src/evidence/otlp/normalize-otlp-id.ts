const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Normalises an OTLP/JSON trace or span id to lowercase hex. A string of exactly 2×`byteLength` hex
 * digits is hex (any case); anything else is base64 (protobuf canonical JSON), as nemo_evaluator_sdk
 * disambiguates (a 16-digit hex span id is also valid base64, so the length decides). A hex-looking
 * id whose base64 reading does not give `byteLength` bytes is kept as hex. Absent/empty → ''.
 *
 * @example
 * normalizeOtlpId('5B8EFFF798038103D269B633813FC60C', 16); // '5b8efff798038103d269b633813fc60c'
 * normalizeOtlpId('W47/95gDgQPSabYzgT/GDA==', 16); // '5b8efff798038103d269b633813fc60c'
 */
export function normalizeOtlpId(value: unknown, byteLength: 8 | 16): string {
  if (typeof value !== 'string' || value === '') return '';
  const isHex = HEX.test(value);
  if (isHex && value.length === 2 * byteLength) return value.toLowerCase();
  if (BASE64.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === byteLength || !isHex) return bytes.toString('hex');
  }
  return value.toLowerCase();
}
