/**
 * A seeded pseudo-random generator of floats in [0, 1) (mulberry32: 32-bit state, fast, good enough
 * for resampling; not for cryptography). The same seed gives the same sequence on every platform.
 *
 * @example
 * const next = seededRandom(42);
 * next(); // 0.6011037519201636, then the same sequence on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
