/**
 * Boxes NaN/±Infinity for strict JSON.
 *
 * @example
 * boxNonFinite(-Infinity); // { $nf: '-Infinity' }
 */
export function boxNonFinite(value: number): { $nf: string } {
  return { $nf: Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity' };
}
