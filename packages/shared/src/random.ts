/**
 * mulberry32: a small seeded pseudo-random generator, numbers in [0, 1). The
 * same seed gives the same numbers on every run: for generated data, benches
 * and fixtures that must come out alike, and tests whose failing case can be
 * told again by its seed. Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
