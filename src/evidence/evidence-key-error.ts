/**
 * The SDK's `KeyError` for evidence: a descriptor is missing, or missing in the requested format.
 * `message` is the SDK's text, e.g. `missing evidence descriptor 'trace' in format 'otlp'`.
 *
 * @example
 * try { evidence.require('final_state'); } catch (e) { if (e instanceof EvidenceKeyError) skip(); }
 */
export class EvidenceKeyError extends Error {
  override readonly name = 'EvidenceKeyError';
  /** Always `key_error`, for errors-as-data consumers. */
  readonly code = 'key_error';
  constructor(
    message: string,
    /** The evidence name that was looked up. */
    readonly key: string,
  ) {
    super(message);
  }
}
