/**
 * The outcome of checking one output value against its declared kind: either accepted, with the value
 * the SDK's schema would have coerced it to (for information only; storage keeps the raw value), or
 * refused with pydantic's error type and message.
 */
export type OutputValueCheck =
  { ok: true; coerced: unknown } | { ok: false; errorType: string; message: string; loc?: string };
