import type { PyFloat } from './py-float.js';

/**
 * A value ready for {@link pythonJson}: plain JSON plus {@link PyFloat} boxes for float-typed fields.
 * Plain numbers print as Python ints when integral (unless a float path marks them), floats otherwise.
 *
 * @example
 * const v: WireValue = { count: 2, mean: new PyFloat(0.5) };
 */
export type WireValue = null | boolean | number | string | PyFloat | readonly WireValue[] | WireObject;

/** An object of {@link WireValue}s. */
export interface WireObject {
  readonly [key: string]: WireValue;
}
