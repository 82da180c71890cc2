/**
 * The SDK's `ValueError` for evidence: wrong kind, unsupported format or ref, a path escaping its root,
 * a descriptor with neither `ref` nor `data`. `message` is the SDK's text.
 *
 * @example
 * try { await fs.readText('../etc/passwd'); } catch (e) { e instanceof EvidenceValueError; } // true
 */
export class EvidenceValueError extends Error {
  override readonly name = 'EvidenceValueError';
  /** Always `value_error`, for errors-as-data consumers. */
  readonly code = 'value_error';
}
