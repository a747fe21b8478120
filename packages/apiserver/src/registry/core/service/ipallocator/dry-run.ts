/**
 * Dry-run views of the ClusterIP allocators (upstream `DryRun()`): the same checks as the real
 * allocator, nothing reserved or written. Dynamic allocation answers the network address without
 * looking for a free one, as upstream ("racy and not worth the effort").
 */
import { formatCIDR, type CIDR, type IP, type IPFamily } from "@servicenet/api";
import { ErrNotInRange, ErrNotReady, type IPAllocator, type ServiceRef } from "./interfaces.ts";

/** The reads of a dry-run view, answered by the real allocator; writes are no-ops. */
export abstract class DryRunView implements IPAllocator {
  protected readonly real: IPAllocator;

  constructor(real: IPAllocator) {
    this.real = real;
  }

  abstract allocate(ip: IP): Promise<void>;
  abstract allocateNext(): Promise<IP>;

  allocateService(_svc: ServiceRef, ip: IP): Promise<void> {
    return this.allocate(ip);
  }

  allocateNextService(): Promise<IP> {
    return this.allocateNext();
  }

  async release(): Promise<void> {}

  forEach(fn: (ip: IP) => void): void {
    this.real.forEach(fn);
  }

  cidr(): CIDR {
    return this.real.cidr();
  }

  ipFamily(): IPFamily {
    return this.real.ipFamily();
  }

  has(ip: IP): boolean {
    return this.real.has(ip);
  }

  free(): number {
    return this.real.free();
  }

  used(): number {
    return this.real.used();
  }

  dryRun(): IPAllocator {
    return this;
  }

  destroy(): void {}
}

/** An allocator of one range that can tell which addresses it may hand out. */
export interface RangeAllocatorLike extends IPAllocator {
  contains(ip: IP): boolean;
}

/** Dry run of one range (bitmap Range, StoredRange, IPAddress allocator): range check only; `ready` gates it. */
export class RangeDryRun extends DryRunView {
  readonly #range: RangeAllocatorLike;
  readonly #ready: () => boolean;

  constructor(real: RangeAllocatorLike, ready: () => boolean = () => true) {
    super(real);
    this.#range = real;
    this.#ready = ready;
  }

  async allocate(ip: IP): Promise<void> {
    if (!this.#ready()) throw new ErrNotReady();
    if (!this.#range.contains(ip)) throw new ErrNotInRange(ip, formatCIDR(this.#range.cidr()));
  }

  async allocateNext(): Promise<IP> {
    if (!this.#ready()) throw new ErrNotReady();
    return this.#range.cidr().ip;
  }

  contains(ip: IP): boolean {
    return this.#range.contains(ip);
  }
}
