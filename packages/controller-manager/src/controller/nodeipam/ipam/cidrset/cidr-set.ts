/**
 * A set of equal-sized node CIDR blocks carved out of one cluster CIDR, as upstream's
 * pkg/controller/nodeipam/ipam/cidrset/cidr_set.go `CidrSet`: block `i` is the cluster network
 * with `i` written into the bits between the cluster and the node prefix lengths. All address
 * maths is BigInt (upstream splits IPv6 into two uint64 halves; the results are the same).
 */
import { cidrsOverlap, familyBits, formatCIDR, formatIP, lastAddress, type CIDR, type IP } from "@servicenet/api/net";
import { Bitmap } from "./bitmap.ts";
import type { CidrSetMetrics } from "./metrics.ts";

/**
 * The subnet mask size cannot be greater than 16 more than the cluster mask size (upstream's
 * `clusterSubnetMaxDiff`, for IPv6 only: the bitmap is uncompressed).
 */
export const clusterSubnetMaxDiff = 16;

/** `ErrCIDRRangeNoCIDRsRemaining`'s text. */
export const errCIDRRangeNoCIDRsRemaining = "CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range";
/** `ErrCIDRSetSubNetTooBig`'s text. */
export const errCIDRSetSubNetTooBig = "New CIDR set failed; the node CIDR size is too big";

/** An error of a CidrSet operation (upstream's plain errors; `message` is theirs). */
export class CIDRSetError extends Error {
  override readonly name = "CIDRSetError";
}

/** `CidrSet`: allocate, occupy and release node CIDR blocks of one cluster CIDR. */
export class CidrSet {
  readonly clusterCIDR: CIDR;
  readonly nodeMaskSize: number;
  /** The number of blocks (2^(nodeMask - clusterMask)). */
  readonly maxCIDRs: number;
  #allocated = 0;
  #nextCandidate = 0;
  readonly #used = new Bitmap();
  readonly #metrics: CidrSetMetrics | undefined;
  /** upstream's `label`: the cluster CIDR as text. */
  readonly #label: { clusterCIDR: string };

  /**
   * `NewCIDRSet`. The caller makes sure `subNetMaskSize` is not shorter than the cluster's prefix.
   * With `metrics`, the set reports to upstream's node_ipam_controller_cidrset_* series.
   * @throws CIDRSetError with `ErrCIDRSetSubNetTooBig` for an IPv6 set of more than 2^16 blocks.
   */
  constructor(clusterCIDR: CIDR, subNetMaskSize: number, metrics?: CidrSetMetrics) {
    if (clusterCIDR.family === "IPv6" && subNetMaskSize - clusterCIDR.prefix > clusterSubnetMaxDiff)
      throw new CIDRSetError(errCIDRSetSubNetTooBig);
    this.clusterCIDR = { ...clusterCIDR, hostBitsSet: false };
    this.nodeMaskSize = subNetMaskSize;
    this.maxCIDRs = 2 ** (subNetMaskSize - clusterCIDR.prefix);
    this.#metrics = metrics;
    this.#label = { clusterCIDR: formatCIDR(this.clusterCIDR) };
    metrics?.maxCidrs.set(this.#label, this.maxCIDRs);
  }

  /** How many blocks are in use (upstream's `allocatedCIDRs`). */
  get allocatedCIDRs(): number {
    return this.#allocated;
  }

  /** True if block `index` is in use. */
  isUsed(index: number): boolean {
    return this.#used.get(index);
  }

  /** `indexToCIDRBlock`: block number `index`. */
  indexToCIDRBlock(index: number): CIDR {
    const shift = BigInt(familyBits(this.clusterCIDR.family) - this.nodeMaskSize);
    const value = this.clusterCIDR.ip.value | (BigInt(index) << shift);
    return {
      family: this.clusterCIDR.family,
      ip: { family: this.clusterCIDR.family, value },
      prefix: this.nodeMaskSize,
      hostBitsSet: false,
    };
  }

  /**
   * `AllocateNext`: the first free block at or after the one after the last allocation, wrapping.
   * @throws CIDRSetError `ErrCIDRRangeNoCIDRsRemaining` when every block is in use.
   */
  allocateNext(): CIDR {
    if (this.#allocated === this.maxCIDRs) throw new CIDRSetError(errCIDRRangeNoCIDRsRemaining);
    let candidate = this.#nextCandidate;
    let i = 0;
    for (; i < this.maxCIDRs; i++) {
      if (!this.#used.get(candidate)) break;
      candidate = (candidate + 1) % this.maxCIDRs;
    }
    this.#nextCandidate = (candidate + 1) % this.maxCIDRs;
    this.#used.set(candidate, true);
    this.#allocated++;
    this.#metrics?.allocations.inc(this.#label);
    this.#metrics?.allocationTriesPerRequest.observe(this.#label, i);
    this.#updateUsage();
    return this.indexToCIDRBlock(candidate);
  }

  /** `Release`: frees every block `cidr` covers; blocks already free are not counted twice. */
  release(cidr: CIDR): void {
    const [begin, end] = this.beginningAndEndIndices(cidr);
    for (let i = begin; i <= end; i++) {
      if (!this.#used.get(i)) continue;
      this.#used.set(i, false);
      this.#allocated--;
      this.#metrics?.releases.inc(this.#label);
    }
    this.#updateUsage();
  }

  /** `Occupy`: marks every block `cidr` covers as used; succeeds even if some already were. */
  occupy(cidr: CIDR): void {
    const [begin, end] = this.beginningAndEndIndices(cidr);
    for (let i = begin; i <= end; i++) {
      if (this.#used.get(i)) continue;
      this.#used.set(i, true);
      this.#allocated++;
      this.#metrics?.allocations.inc(this.#label);
    }
    this.#updateUsage();
  }

  /** `cidrset_usage_cidrs`: the fraction of blocks in use. */
  #updateUsage(): void {
    this.#metrics?.usage.set(this.#label, this.#allocated / this.maxCIDRs);
  }

  /**
   * `getBeginningAndEndIndices`: the first and last block `cidr` overlaps; the whole set when
   * `cidr` is as large as the cluster CIDR or larger.
   * @throws CIDRSetError when `cidr` lies outside the cluster CIDR.
   */
  beginningAndEndIndices(cidr: CIDR): [number, number] {
    if (!cidrsOverlap(this.clusterCIDR, cidr))
      throw new CIDRSetError(`cidr ${formatCIDR(cidr)} is out the range of cluster cidr ${formatCIDR(this.clusterCIDR)}`);
    if (this.clusterCIDR.prefix >= cidr.prefix) return [0, this.maxCIDRs - 1];
    const network = { ...cidr, hostBitsSet: false };
    return [this.indexForIP(network.ip), this.indexForIP(lastAddress(network))];
  }

  /** `getIndexForIP`: the number of the block holding `ip`. @throws CIDRSetError outside the set. */
  indexForIP(ip: IP): number {
    const shift = BigInt(familyBits(ip.family) - this.nodeMaskSize);
    const index = (this.clusterCIDR.ip.value ^ ip.value) >> shift;
    if (ip.family !== this.clusterCIDR.family || index >= BigInt(this.maxCIDRs))
      throw new CIDRSetError(`CIDR: ${formatIP(ip)}/${this.nodeMaskSize} is out of the range of CIDR allocator`);
    return Number(index);
  }
}
