/**
 * The legacy ClusterIP allocator persisted in storage: upstream `ipallocator.New(cidr, factory)`
 * with the factory of pkg/registry/core/rest/storage_core.go, an in-memory bitmap wrapped by the
 * RangeAllocation storage (allocator/storage). Every allocate/allocateNext/release is a
 * compare-and-swap of `/registry/ranges/serviceips` (or the secondary key), so apiservers sharing
 * one store (legacy ones and dual-write ones alike) never hand out the same IP.
 */
import type { Logger } from "@servicenet/component-base/logs";
import { formatCIDR, type CIDR, type IP, type IPFamily } from "@servicenet/api";
import type { Store } from "../../../../storage/index.ts";
import type { RandomSource } from "../allocator/interfaces.ts";
import { serviceIPAllocationsResource, serviceIPsKey, type RangeAllocationSnapshot } from "../allocator/storage/keys.ts";
import { StoredBitmapRange } from "../allocator/storage/stored-range.ts";
import { Range } from "./bitmap.ts";
import { RangeDryRun } from "./dry-run.ts";
import { ErrNotInRange, type IPAllocator, type RangeAllocation } from "./interfaces.ts";
import type { ClusterIPAllocatorMetrics } from "./metrics.ts";

/** Upstream's klog line when dual write finds no bitmap on a new cluster. */
export const dualWriteInitLogLine =
  "kube-apiserver started with IP allocator and dual write enabled but bitmap allocator does not exist, recreating it ...";

/** Options of a StoredRange. */
export interface StoredRangeOptions {
  cidr: CIDR;
  store: Store;
  /** `serviceIPsKey` (default) for the primary family, `secondaryServiceIPsKey` for the secondary. */
  key?: string;
  random?: RandomSource;
  /** Records the `kube_apiserver_clusterip_allocator_*` metrics with `cidr` = this range. */
  metrics?: ClusterIPAllocatorMetrics;
  logger?: Logger;
  /** Most operations per storage write (default 512). */
  maxBatch?: number;
}

type Scope = "static" | "dynamic";

/** A persisted bitmap ClusterIP range (IPAllocator + RangeRegistry). */
export class StoredRange extends StoredBitmapRange<Range> implements IPAllocator {
  readonly #o: StoredRangeOptions;
  readonly #label: string;

  constructor(o: StoredRangeOptions) {
    const label = formatCIDR(o.cidr);
    // Dual-write new-cluster initialisation (storage_core.go) logs upstream's line.
    super({
      store: o.store,
      key: o.key ?? serviceIPsKey,
      resource: serviceIPAllocationsResource,
      newRange: (factory) => new Range(o.cidr, { factory }),
      rangeSpec: label,
      initLogLine: dualWriteInitLogLine,
      random: o.random,
      logger: o.logger,
      maxBatch: o.maxBatch,
    });
    this.#o = o;
    this.#label = label;
    this.#setGauges();
  }

  override createOrUpdate(snapshot: RangeAllocationSnapshot): Promise<void> {
    return super.createOrUpdate(snapshot).finally(() => this.#setGauges());
  }

  async allocate(ip: IP): Promise<void> {
    if (!this.range.contains(ip)) {
      this.#count("static", false);
      throw new ErrNotInRange(ip, this.#label);
    }
    await this.#measure("static", () => this.run(() => this.range.allocateSync(ip)));
  }

  allocateNext(): Promise<IP> {
    return this.#measure("dynamic", () => this.run(() => this.range.allocateNextSync()));
  }

  async release(ip: IP): Promise<void> {
    if (!this.range.contains(ip)) return;
    await this.run(() => this.range.releaseSync(ip));
    this.#setGauges();
  }

  /** True if `ip` is one of the usable addresses of the range. */
  contains(ip: IP): boolean {
    return this.range.contains(ip);
  }

  /** The in-memory view; current as of this instance's last operation. */
  has(ip: IP): boolean {
    return this.range.has(ip);
  }

  forEach(fn: (ip: IP) => void): void {
    this.range.forEach(fn);
  }

  used(): number {
    return this.range.used();
  }

  free(): number {
    return this.range.free();
  }

  size(): number {
    return this.range.size();
  }

  cidr(): CIDR {
    return this.range.cidr();
  }

  ipFamily(): IPFamily {
    return this.range.ipFamily();
  }

  /** The in-memory state as a RangeAllocation. */
  snapshot(): RangeAllocation {
    return this.range.snapshot();
  }

  dryRun(): IPAllocator {
    return new RangeDryRun(this);
  }

  async #measure<T>(scope: Scope, fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      const v = await fn();
      this.#count(scope, true);
      this.#o.metrics?.allocationDuration.observe({ cidr: this.#label }, (performance.now() - start) / 1000);
      return v;
    } catch (err) {
      this.#count(scope, false);
      throw err;
    }
  }

  #count(scope: Scope, ok: boolean): void {
    const m = this.#o.metrics;
    if (!m) return;
    (ok ? m.allocations : m.allocationErrors).inc({ cidr: this.#label, scope });
    this.#setGauges();
  }

  #setGauges(): void {
    const m = this.#o.metrics;
    if (!m) return;
    m.allocated.set({ cidr: this.#label }, this.range.used());
    m.available.set({ cidr: this.#label }, this.range.free());
  }
}
