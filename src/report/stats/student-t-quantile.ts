import { createRequire } from 'node:module';

interface JStatStudentT {
  studentt: { inv(p: number, dof: number): number };
}

const jStat = createRequire(import.meta.url)('jstat') as JStatStudentT;

/**
 * The p-quantile of Student's t distribution with `df` degrees of freedom (jstat).
 *
 * @example
 * studentTQuantile(0.975, 4); // 2.7764451…
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(df > 0) || !(p > 0 && p < 1))
    throw new RangeError(`studentTQuantile: need 0<p<1 and df>0, got p=${p}, df=${df}`);
  return jStat.studentt.inv(p, df);
}
