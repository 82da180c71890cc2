import type { ReportHistogram } from '../report-data.js';

const NICE_STEPS = [1, 2, 2.5, 5, 10];

function tidy(x: number): number {
  return Number.parseFloat(x.toPrecision(12));
}

function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = NICE_STEPS.find((s) => s * magnitude >= raw) ?? 10;
  return tidy(step * magnitude);
}

/**
 * Histogram bins for finite values (non-finite ones are ignored); null when there are none.
 *
 * - all integers spanning at most 40 → one bin per integer (`discrete`, edges at k ± 0.5);
 * - all in [0, 1] → 10 bins of 0.1 (20 of 0.05 beyond 50 values);
 * - otherwise ≈ √n bins (5–30) of a "nice" width (1, 2, 2.5 or 5 × 10^k) on aligned edges;
 * - one distinct value → a single bin of width 1 around it.
 *
 * Bins are `[edges[i], edges[i+1])`, the last one closed.
 *
 * @example
 * histogramBins([0, 1, 1, 2]); // { edges: [-0.5, 0.5, 1.5, 2.5], counts: [1, 2, 1], discrete: true }
 */
export function histogramBins(values: readonly number[] | Float64Array): ReportHistogram | null {
  const finite = (values instanceof Float64Array ? values : Float64Array.from(values)).filter((v) =>
    Number.isFinite(v),
  );
  if (finite.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const v of finite) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (finite.every((v) => Number.isInteger(v)) && max - min <= 40) {
    const counts = new Array<number>(max - min + 1).fill(0);
    for (const v of finite) counts[v - min] = (counts[v - min] ?? 0) + 1;
    const edges = counts.map((_, i) => min + i - 0.5);
    edges.push(max + 0.5);
    return { edges, counts, discrete: true };
  }
  if (min === max) return { edges: [min - 0.5, min + 0.5], counts: [finite.length], discrete: false };
  let lo: number;
  let step: number;
  let bins: number;
  if (min >= 0 && max <= 1) {
    bins = finite.length > 50 ? 20 : 10;
    step = 1 / bins;
    lo = 0;
  } else {
    const target = Math.min(30, Math.max(5, Math.ceil(Math.sqrt(finite.length))));
    step = niceStep((max - min) / target);
    lo = tidy(Math.floor(min / step) * step);
    bins = Math.max(1, Math.ceil(tidy((max - lo) / step)));
    if (tidy(lo + bins * step) < max) bins += 1;
  }
  const edges = Array.from({ length: bins + 1 }, (_, i) => tidy(lo + i * step));
  const counts = new Array<number>(bins).fill(0);
  for (const v of finite) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(tidy((v - lo) / step))));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return { edges, counts, discrete: false };
}
