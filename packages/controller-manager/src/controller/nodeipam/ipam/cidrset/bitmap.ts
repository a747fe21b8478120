/**
 * A growable bitmap: the storage grows to the highest bit ever set, as Go's big.Int does for
 * upstream's `CidrSet.used`, so a /8 cluster CIDR cut into /32 blocks costs nothing until used.
 */
export class Bitmap {
  #bytes = new Uint8Array(0);

  /** True if bit `i` is set. */
  get(i: number): boolean {
    const byte = i >>> 3;
    return byte < this.#bytes.length && (this.#bytes[byte]! & (1 << (i & 7))) !== 0;
  }

  /** Sets or clears bit `i`. */
  set(i: number, on: boolean): void {
    const byte = i >>> 3;
    if (byte >= this.#bytes.length) {
      if (!on) return;
      const grown = new Uint8Array(Math.max(byte + 1, this.#bytes.length * 2));
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    const bit = 1 << (i & 7);
    const old = this.#bytes[byte] ?? 0;
    this.#bytes[byte] = on ? old | bit : old & ~bit;
  }
}
