/**
 * Pod IPs as the CNI host-local IPAM plugin hands them out (containernetworking/plugins
 * plugins/ipam/host-local/backend/allocator): one range per Node podCIDR, in `spec.podCIDRs`
 * order, so a Pod gets one IP per family with the primary family first (never sorted, as kubenet
 * stopped sorting for dual-stack). In each range the network address and the gateway (the first
 * address) are never given, nor the IPv4 broadcast address; allocation goes round-robin from the
 * last address handed out, skipping addresses in use. BigInt maths throughout.
 */
import { addressAt, cidrSize, formatIP, indexOf, parseCIDR, parseIP, type CIDR } from "@servicenet/api/net";

/** host-local's error when a range has no free address. */
export function rangeFullError(cidr: string): Error {
  return new Error(`no IP addresses available in range set: ${cidr}`);
}

/** One range (`RangeSet` of one `Range`): a podCIDR. */
class RangeAllocator {
  readonly cidr: CIDR;
  readonly #text: string;
  /** Offsets in use, by owner. */
  readonly #used = new Map<bigint, string>();
  #last: bigint;

  constructor(text: string) {
    const c = parseCIDR(text);
    if (c === null) throw new Error(`invalid podCIDR ${JSON.stringify(text)}`);
    this.cidr = c;
    this.#text = text;
    // rangeStart = network + 1 is the gateway; the first Pod gets network + 2.
    this.#last = 1n;
  }

  /** The offsets a Pod may get: 2 .. size-1 (IPv4 also drops the broadcast address). */
  #bounds(): [bigint, bigint] {
    const size = cidrSize(this.cidr);
    return [2n, this.cidr.family === "IPv4" ? size - 2n : size - 1n];
  }

  allocate(owner: string): string {
    const [first, last] = this.#bounds();
    if (last < first) throw rangeFullError(this.#text);
    const span = last - first + 1n;
    for (let i = 1n; i <= span; i++) {
      const candidate = first + ((((this.#last - first + i) % span) + span) % span);
      if (this.#used.has(candidate)) continue;
      this.#used.set(candidate, owner);
      this.#last = candidate;
      return formatIP(addressAt(this.cidr, candidate));
    }
    throw rangeFullError(this.#text);
  }

  release(owner: string): void {
    for (const [offset, o] of this.#used) if (o === owner) this.#used.delete(offset);
  }

  /** Marks `ip` (a Pod IP found at restart) as used by `owner`; false if it is not in this range. */
  reserve(ip: string, owner: string): boolean {
    const parsed = parseIP(ip);
    const offset = parsed === null ? -1n : indexOf(this.cidr, parsed);
    if (offset < 0n) return false;
    this.#used.set(offset, owner);
    return true;
  }

  get inUse(): number {
    return this.#used.size;
  }
}

/** host-local IPAM for one Node: one range per podCIDR. */
export class HostLocalIPAM {
  readonly #ranges: RangeAllocator[];

  /** @throws Error for a podCIDR that does not parse. */
  constructor(podCIDRs: readonly string[]) {
    this.#ranges = podCIDRs.map((c) => new RangeAllocator(c));
  }

  /**
   * One IP per podCIDR for `owner` (a Pod's namespace/name/uid), in podCIDRs order. All or
   * nothing: a full range gives back what the others handed out.
   */
  allocate(owner: string): string[] {
    const out: string[] = [];
    try {
      for (const r of this.#ranges) out.push(r.allocate(owner));
    } catch (err) {
      this.release(owner);
      throw err;
    }
    return out;
  }

  /** Gives `owner`'s IPs back. */
  release(owner: string): void {
    for (const r of this.#ranges) r.release(owner);
  }

  /** Marks the IPs a Pod already has (after a restart) as used. */
  reserve(owner: string, ips: readonly string[]): void {
    for (const ip of ips) this.#ranges.some((r) => r.reserve(ip, owner));
  }

  /** Addresses in use per range, in podCIDRs order. */
  inUse(): number[] {
    return this.#ranges.map((r) => r.inUse);
  }
}
