/** A JSON value as parsed from a bundle or returned by a metric (numbers may be NaN/±Infinity in memory). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
