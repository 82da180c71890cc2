/**
 * A number that must be written as a Python `float` (`1.0`, not `1`). JavaScript cannot tell `1` from
 * `1.0`, so the row → wire converters box every float-typed field before serialising.
 *
 * @example
 * pythonJson({ mean: new PyFloat(1) }); // '{"mean": 1.0}'
 */
export class PyFloat {
  constructor(readonly value: number) {}
}
