/**
 * The IPAddress-object allocator of one ServiceCIDR prefix (upstream
 * pkg/registry/core/service/ipallocator/ipallocator.go): allocating an IP means creating the
 * IPAddress object named after it; the object's name is unique in storage, so two apiservers can
 * never both create it. The informer cache only spares doomed creates. All address maths is BigInt
 * (a /64 must never allocate outside itself, upstream #138374).
 */
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import {
  cidrBits,
  formatCIDR,
  formatIP,
  ipAllocatorControllerName,
  labelIPAddressFamily,
  labelIPAddressManagedBy,
  parseIP,
  type CIDR,
  type IP,
  type IPFamily,
} from "@servicenet/api";
import type { KubeObject } from "../../../../storage/index.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";
import { calculateRangeOffset } from "./bitmap.ts";
import { RangeDryRun } from "./dry-run.ts";
import { ErrAllocated, ErrFull, ErrNotInRange, ErrNotReady, type IPAllocator, type ServiceRef } from "./interfaces.ts";
import { serviceIPAddress, type IPAddressClient } from "./ipaddress-client.ts";
import type { ClusterIPAllocatorMetrics } from "./metrics.ts";
import { randomBigInt, type BigRandom } from "./random-bigint.ts";

const maxUint64 = (1n << 64n) - 1n;

export interface IPAddressAllocatorOptions {
  random?: BigRandom;
  metrics?: ClusterIPAllocatorMetrics;
  logger?: Logger;
}

/** Usable addresses: IPv4 excludes network and broadcast, IPv6 only the network address; saturates at 2^64-1. */
export function hostsPerNetwork(cidr: CIDR): bigint {
  const hostBits = cidrBits(cidr) - cidr.prefix;
  if (hostBits >= 64) return maxUint64;
  const total = 1n << BigInt(hostBits);
  const n = cidr.family === "IPv4" ? total - 2n : total - 1n;
  return n < 0n ? 0n : n;
}

/** The allocator of one prefix. `ready` is driven by the MetaAllocator from the ServiceCIDR state. */
export class IPAddressAllocator implements IPAllocator {
  readonly #cidr: CIDR;
  readonly #cidrText: string;
  readonly #client: IPAddressClient;
  readonly #lister: Lister<KubeObject>;
  readonly #o: IPAddressAllocatorOptions;
  readonly #size: bigint;
  readonly #first: bigint;
  readonly #last: bigint;
  readonly #rangeOffset: bigint;
  ready = true;

  /** Throws `shortest allowed prefix length for service CIDR is 64, got N` for IPv6 prefixes shorter than /64. */
  constructor(cidr: CIDR, client: IPAddressClient, lister: Lister<KubeObject>, opts: IPAddressAllocatorOptions = {}) {
    if (cidr.family === "IPv6" && cidr.prefix < 64)
      throw new Error(`shortest allowed prefix length for service CIDR is 64, got ${cidr.prefix}`);
    this.#cidr = cidr;
    this.#cidrText = formatCIDR(cidr);
    this.#client = client;
    this.#lister = lister;
    this.#o = opts;
    this.#size = hostsPerNetwork(cidr);
    this.#first = cidr.ip.value + 1n;
    this.#last = cidr.ip.value + (1n << BigInt(cidrBits(cidr) - cidr.prefix)) - (cidr.family === "IPv4" ? 2n : 1n);
    this.#rangeOffset = this.#size === 0n ? 0n : BigInt(calculateRangeOffset(cidr));
  }

  #check(): void {
    if (!this.ready || !this.#lister.hasSynced()) throw new ErrNotReady();
  }

  /** True if `ip` is one of this prefix's allocatable addresses (not the network, not the IPv4 broadcast). */
  contains(ip: IP): boolean {
    return ip.family === this.#cidr.family && ip.value >= this.#first && ip.value <= this.#last && this.#size > 0n;
  }

  /** Creates the IPAddress; AlreadyExists becomes ErrAllocated. */
  async #create(svc: ServiceRef, ip: IP, scope: "static" | "dynamic"): Promise<void> {
    try {
      await this.#client.create(serviceIPAddress(ip, svc));
    } catch (e) {
      if ((e as { reason?: string }).reason === "AlreadyExists") throw new ErrAllocated();
      throw e;
    }
    this.#o.metrics?.allocations.inc({ cidr: this.#cidrText, scope });
  }

  /** Sets the allocated/available gauges of this prefix to `used` (the MetaAllocator counts at scrape time). */
  setGauges(used: number): void {
    const m = this.#o.metrics;
    if (!m) return;
    m.allocated.set({ cidr: this.#cidrText }, used);
    const f = this.#size - BigInt(used);
    m.available.set({ cidr: this.#cidrText }, f < 0n ? 0 : f > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(f));
  }

  async allocate(): Promise<void> {
    throw new Error("IPAddress allocator needs the Service: use allocateService");
  }

  async allocateNext(): Promise<IP> {
    throw new Error("IPAddress allocator needs the Service: use allocateNextService");
  }

  /** Static allocation: [first, last] only (never the network or IPv4 broadcast address); no cache check. */
  async allocateService(svc: ServiceRef, ip: IP): Promise<void> {
    this.#check();
    if (!this.contains(ip)) {
      this.#o.metrics?.allocationErrors.inc({ cidr: this.#cidrText, scope: "static" });
      throw new ErrNotInRange(ip, this.#cidrText);
    }
    try {
      await this.#create(svc, ip, "static");
    } catch (e) {
      this.#o.metrics?.allocationErrors.inc({ cidr: this.#cidrText, scope: "static" });
      throw e;
    }
  }

  /**
   * Dynamic allocation: a random start in the upper band, wrapping, then the lower band. Cached
   * IPs are skipped; a create that loses a race (AlreadyExists) moves on; other errors abort.
   */
  async allocateNextService(svc: ServiceRef): Promise<IP> {
    this.#check();
    const started = performance.now();
    const offsetAddress = this.#first + this.#rangeOffset;
    const ip =
      (await this.#scan(svc, offsetAddress, this.#size - this.#rangeOffset)) ?? (await this.#scan(svc, this.#first, this.#rangeOffset));
    if (ip === null) {
      this.#o.metrics?.allocationErrors.inc({ cidr: this.#cidrText, scope: "dynamic" });
      throw new ErrFull();
    }
    this.#o.metrics?.allocationDuration.observe({ cidr: this.#cidrText }, (performance.now() - started) / 1000);
    return ip;
  }

  async #scan(svc: ServiceRef, base: bigint, count: bigint): Promise<IP | null> {
    if (count <= 0n) return null;
    const start = randomBigInt(count, this.#o.random);
    for (let i = 0n; i < count; i++) {
      const ip: IP = { family: this.#cidr.family, value: base + ((start + i) % count) };
      if (this.#lister.get(formatIP(ip)) !== undefined) continue;
      try {
        await this.#create(svc, ip, "dynamic");
        return ip;
      } catch (e) {
        if (e instanceof ErrAllocated) continue; // mid-air collision with another allocator
        this.#o.metrics?.allocationErrors.inc({ cidr: this.#cidrText, scope: "dynamic" });
        throw e;
      }
    }
    return null;
  }

  /** Deletes the IPAddress; errors are logged and ignored, as upstream. */
  async release(ip: IP): Promise<void> {
    try {
      await this.#client.delete(formatIP(ip));
    } catch (e) {
      (this.#o.logger ?? noopLogger).info(`error releasing ip ${formatIP(ip)}: ${String(e)}`);
    }
  }

  /** Managed IPAddresses of this family inside this prefix (upstream ForEach with the CIDR filter). */
  forEach(fn: (ip: IP) => void): void {
    for (const ip of managedIPs(this.#lister, this.#cidr.family)) if (this.contains(ip)) fn(ip);
  }

  cidr(): CIDR {
    return this.#cidr;
  }

  ipFamily(): IPFamily {
    return this.#cidr.family;
  }

  has(ip: IP): boolean {
    return this.contains(ip) && this.#lister.get(formatIP(ip)) !== undefined;
  }

  used(): number {
    let n = 0;
    this.forEach(() => n++);
    return n;
  }

  free(): number {
    const f = this.#size - BigInt(this.used());
    if (f < 0n) return 0;
    return f > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(f);
  }

  /** The number of usable addresses (BigInt; a /64 has 2^64-1). */
  size(): bigint {
    return this.#size;
  }

  dryRun(): IPAllocator {
    return new RangeDryRun(this, () => this.ready);
  }

  destroy(): void {}
}

/** The managed-by=ipallocator.k8s.io IPAddresses of `family` in the cache. */
export function* managedIPs(lister: Lister<KubeObject>, family: IPFamily): Iterable<IP> {
  for (const o of lister.list()) {
    const labels = (o.metadata as { labels?: Record<string, string> }).labels ?? {};
    if (labels[labelIPAddressManagedBy] !== ipAllocatorControllerName || labels[labelIPAddressFamily] !== family) continue;
    const ip = parseIP(o.metadata.name ?? "");
    if (ip && ip.family === family) yield ip;
  }
}
