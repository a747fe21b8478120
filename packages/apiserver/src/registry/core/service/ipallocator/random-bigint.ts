/** Uniform random BigInts for scans over ranges of any size (a /64 has 2^64 - 1 candidates). */
import { randomBytes } from "node:crypto";

/** Returns an integer in [0, n); injected in tests for determinism. */
export type BigRandom = (n: bigint) => bigint;

/** A random integer in [0, n) (0 when n <= 1); uses `random` when given. */
export function randomBigInt(n: bigint, random?: BigRandom): bigint {
  if (n <= 1n) return 0n;
  if (random) return random(n);
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return BigInt(Math.floor(Math.random() * Number(n)));
  // 128 random bits modulo n: the bias is below 2^-64 for n < 2^64, negligible here.
  return BigInt(`0x${randomBytes(16).toString("hex")}`) % n;
}

/** A deterministic BigRandom built on a number source (e.g. seededRandom) for tests. */
export function bigRandomFrom(random: (n: number) => number): BigRandom {
  return (n) => (n <= 2n ** 32n ? BigInt(random(Number(n))) : (BigInt(random(2 ** 32)) * n) / 2n ** 32n);
}
