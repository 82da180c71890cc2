/**
 * How deep an OTLP `AnyValue` may nest (`arrayValue` / `kvlistValue` inside one another) before the
 * decoders refuse it with an `OtlpDecodeError` naming the field and offset. Real instrumentation
 * nests a handful of levels; thousands of levels are an attack on every recursive reader downstream
 * (attribute rendering, bundle and store writers), so they are refused where they are decoded.
 *
 * @example
 * if (depth > MAX_ANY_VALUE_DEPTH) throw new OtlpDecodeError('nested too deep', { field });
 */
export const MAX_ANY_VALUE_DEPTH = 128;
