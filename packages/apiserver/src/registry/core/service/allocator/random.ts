/** Random sources for the bitmap scan strategies. */
import type { RandomSource } from "./interfaces.ts";

/** The default source: Math.random, like upstream's time-seeded math/rand (not cryptographic, not needed). */
export const mathRandom: RandomSource = (n) => Math.floor(Math.random() * n);

/**
 * A deterministic source (mulberry32) for tests and reproducible benchmarks:
 * the same seed always yields the same sequence.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(u * n);
  };
}
