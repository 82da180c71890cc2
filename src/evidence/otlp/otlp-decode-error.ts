/**
 * An OTLP payload that cannot be decoded: truncated or corrupt protobuf, invalid JSON, a document that
 * is not an export request. `offset` is the byte offset in the payload (protobuf) and `line` the
 * 1-based line (JSON), when known; `field` names the field being read.
 *
 * @example
 * try { decodeOtlpProtobuf(bytes); } catch (e) { if (e instanceof OtlpDecodeError) console.log(e.offset); }
 */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
  /** Always `otlp_decode`, for errors-as-data consumers. */
  readonly code = 'otlp_decode';
  readonly offset: number | null;
  readonly line: number | null;
  readonly field: string | null;

  constructor(
    message: string,
    where: { offset?: number | null; line?: number | null; field?: string | null } = {},
  ) {
    super(message);
    this.offset = where.offset ?? null;
    this.line = where.line ?? null;
    this.field = where.field ?? null;
  }
}
