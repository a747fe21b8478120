/**
 * The MetaAllocator (upstream pkg/registry/core/service/ipallocator/cidrallocator.go): one per IP
 * family, holding one IPAddressAllocator per distinct CIDR string of the live ServiceCIDRs, kept
 * in step with the ServiceCIDR informer. A CIDR is allocatable while at least one ServiceCIDR
 * naming it is Ready (a missing Ready condition counts as ready) and not being deleted; a
 * deletion makes it unallocatable the moment this apiserver sees it.
 *
 * Deviation (documented): upstream walks a Go map, so which of several CIDRs a dynamic allocation
 * uses is unspecified. Here the order is deterministic: CIDRs of the default `kubernetes`
 * ServiceCIDR first, then by the oldest ServiceCIDR naming them, then by CIDR text. A full CIDR
 * passes to the next, so adding a ServiceCIDR extends a full cluster.
 *
 * Deviation: upstream holds a mutex across the whole dynamic allocation, API calls included,
 * which serialises allocations per family. Unique IPAddress names already make concurrent
 * allocations safe, so none is held here.
 */
import {
  cidrContainsCIDR,
  defaultServiceCIDRName,
  formatCIDR,
  formatIP,
  parseCIDR,
  serviceCIDRConditionReady,
  type CIDR,
  type IP,
  type IPFamily,
} from "@servicenet/api";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { KubeObject } from "../../../../storage/index.ts";
import type { StoreInformer } from "../../../../util/informer/store-informer.ts";
import { DryRunView } from "./dry-run.ts";
import { dualWriteAllocateNext, dualWriteAllocateStatic, type BitmapAllocator } from "./dual-write.ts";
import { ErrFull, ErrMismatchedNetwork, ErrNotReady, type IPAllocator, type ServiceRef } from "./interfaces.ts";
import { IPAddressAllocator, managedIPs, type IPAddressAllocatorOptions } from "./ipallocator.ts";
import type { IPAddressClient } from "./ipaddress-client.ts";

export interface MetaAllocatorOptions extends IPAddressAllocatorOptions {
  family: IPFamily;
  client: IPAddressClient;
  serviceCIDRs: StoreInformer;
  ipAddresses: StoreInformer;
  /** Dual-write: the legacy bitmap of this family's flag CIDR, written along with the IPAddress objects. */
  bitmap?: BitmapAllocator;
  /** The flag CIDR of this family (what `cidr()` reports); defaults to the bitmap's. */
  flagCIDR?: CIDR;
}

interface Entry {
  allocator: IPAddressAllocator;
  serviceCIDRs: Set<string>;
  /** Sort key: 0 for the default ServiceCIDR, then the oldest creation time. */
  rank: [number, string];
}

type ServiceCIDRObject = KubeObject & { spec?: { cidrs?: string[] }; status?: { conditions?: { type?: string; status?: string }[] } };

/** Ready for allocation: not being deleted, and Ready=True or no Ready condition at all. */
export function allocatableServiceCIDR(sc: ServiceCIDRObject): boolean {
  if (sc.metadata.deletionTimestamp) return false;
  const ready = sc.status?.conditions?.find((c) => c.type === serviceCIDRConditionReady);
  return ready === undefined || ready.status === "True";
}

/** One family's allocator over every ServiceCIDR. */
export class MetaAllocator implements IPAllocator {
  readonly #o: MetaAllocatorOptions;
  readonly #log: Logger;
  readonly #entries = new Map<string, Entry>();
  #ordered: Entry[] = [];

  constructor(opts: MetaAllocatorOptions) {
    this.#o = opts;
    this.#log = opts.logger ?? noopLogger;
    const sync = (): void => this.syncAllocators();
    opts.serviceCIDRs.addEventHandler({ onAdd: sync, onUpdate: sync, onDelete: sync });
    // Counting held IPs walks every IPAddress: done per scrape, never per allocation.
    opts.metrics?.onCollect(() => this.#collectGauges());
  }

  #collectGauges(): void {
    const used = new Map<IPAddressAllocator, number>(this.#ordered.map((e) => [e.allocator, 0]));
    this.forEach((ip) => {
      for (const a of used.keys()) if (a.contains(ip)) used.set(a, used.get(a)! + 1);
    });
    for (const [a, n] of used) a.setGauges(n);
  }

  /** Rebuilds the allocator set from the ServiceCIDR cache (called on every ServiceCIDR event). */
  syncAllocators(): void {
    const want = new Map<string, { cidr: CIDR; names: Set<string>; ready: boolean; rank: [number, string] }>();
    for (const sc of this.#o.serviceCIDRs.list() as ServiceCIDRObject[]) {
      const name = sc.metadata.name ?? "";
      for (const text of sc.spec?.cidrs ?? []) {
        const cidr = parseCIDR(text);
        if (!cidr || cidr.family !== this.#o.family) continue;
        const key = formatCIDR(cidr);
        const w = want.get(key) ?? { cidr, names: new Set<string>(), ready: false, rank: [1, "~"] as [number, string] };
        w.names.add(name);
        w.ready ||= allocatableServiceCIDR(sc);
        const rank: [number, string] = [name === defaultServiceCIDRName ? 0 : 1, `${sc.metadata.creationTimestamp ?? "~"}/${name}`];
        if (rank[0] < w.rank[0] || (rank[0] === w.rank[0] && rank[1] < w.rank[1])) w.rank = rank;
        want.set(key, w);
      }
    }
    for (const [key, e] of this.#entries) if (!want.has(key) && this.#entries.delete(key)) e.allocator.destroy();
    for (const [key, w] of want) {
      let e = this.#entries.get(key);
      if (!e) {
        try {
          e = {
            allocator: new IPAddressAllocator(w.cidr, this.#o.client, this.#o.ipAddresses, this.#o),
            serviceCIDRs: w.names,
            rank: w.rank,
          };
        } catch (err) {
          this.#log.info(`can not build an allocator for ServiceCIDR prefix ${key}: ${(err as Error).message}`);
          continue;
        }
        this.#entries.set(key, e);
      }
      e.serviceCIDRs = w.names;
      e.rank = w.rank;
      e.allocator.ready = w.ready;
    }
    this.#ordered = [...this.#entries.entries()]
      .sort(([ka, a], [kb, b]) => a.rank[0] - b.rank[0] || cmp(a.rank[1], b.rank[1]) || cmp(ka, kb))
      .map(([, e]) => e);
  }

  /** The allocators in choice order (tests, usage views). */
  allocators(): readonly IPAddressAllocator[] {
    return this.#ordered.map((e) => e.allocator);
  }

  /** True once both informers have listed. */
  isSynced(): boolean {
    return this.#o.serviceCIDRs.hasSynced() && this.#o.ipAddresses.hasSynced();
  }

  /** The first ready allocator whose prefix holds `ip` (`anyReadiness` for release; upstream getAllocator). */
  allocatorFor(ip: IP, anyReadiness = false): IPAddressAllocator | undefined {
    return this.#ordered.find((e) => (anyReadiness || e.allocator.ready) && e.allocator.contains(ip))?.allocator;
  }

  async allocate(): Promise<void> {
    throw new Error("MetaAllocator needs the Service: use allocateService");
  }

  async allocateNext(): Promise<IP> {
    throw new Error("MetaAllocator needs the Service: use allocateNextService");
  }

  /** Static: the IP must sit in a ready CIDR (else ErrMismatchedNetwork); dual-write takes the bitmap bit first. */
  async allocateService(svc: ServiceRef, ip: IP): Promise<void> {
    if (!this.isSynced()) throw new ErrNotReady();
    const a = this.allocatorFor(ip, false);
    if (!a) throw new ErrMismatchedNetwork();
    if (this.#o.bitmap) return dualWriteAllocateStatic(this.#o.bitmap, a, svc, ip);
    await a.allocateService(svc, ip);
  }

  /** Dynamic: ready CIDRs in order; a full or not-ready one passes to the next. */
  async allocateNextService(svc: ServiceRef): Promise<IP> {
    if (!this.isSynced()) throw new ErrNotReady();
    for (const { allocator } of this.#ordered) {
      if (!allocator.ready) continue;
      try {
        if (this.#o.bitmap) return await dualWriteAllocateNext(this.#o.bitmap, allocator, svc);
        return await allocator.allocateNextService(svc);
      } catch (e) {
        if (e instanceof ErrFull || e instanceof ErrNotReady) continue;
        throw e;
      }
    }
    throw new ErrFull();
  }

  /**
   * Frees the bitmap bit (dual-write) and deletes the IPAddress, whatever the CIDR's state and even
   * when no ServiceCIDR holds it any more (upstream then returns ErrMismatchedNetwork and leaves
   * the object to the repair loop). Errors are logged, never thrown.
   */
  async release(ip: IP): Promise<void> {
    if (this.#o.bitmap?.contains(ip))
      await this.#o.bitmap.release(ip).catch((e: unknown) => this.#log.info(`bitmap release of ${formatIP(ip)}: ${String(e)}`));
    const a = this.allocatorFor(ip, true);
    if (a) return a.release(ip);
    await this.#o.client.delete(formatIP(ip)).catch((e: unknown) => this.#log.info(`error releasing ip ${formatIP(ip)}: ${String(e)}`));
  }

  forEach(fn: (ip: IP) => void): void {
    for (const ip of managedIPs(this.#o.ipAddresses, this.#o.family)) fn(ip);
  }

  /** The flag CIDR of this family (kubernetes.default takes its first IP). */
  cidr(): CIDR {
    const c = this.#o.flagCIDR ?? this.#o.bitmap?.cidr() ?? this.#ordered[0]?.allocator.cidr();
    if (!c) throw new Error(`no ${this.#o.family} service CIDR configured`);
    return c;
  }

  ipFamily(): IPFamily {
    return this.#o.family;
  }

  has(ip: IP): boolean {
    return this.#o.ipAddresses.get(formatIP(ip)) !== undefined;
  }

  used(): number {
    let n = 0;
    this.forEach(() => n++);
    return n;
  }

  /** Free addresses of the top-level prefixes (contained ones would count twice). */
  free(): number {
    const tops = this.#ordered.filter((e) => !this.#ordered.some((o) => o !== e && contains(o.allocator.cidr(), e.allocator.cidr())));
    return Math.min(
      Number.MAX_SAFE_INTEGER,
      tops.reduce((sum, e) => sum + e.allocator.free(), 0),
    );
  }

  /** Dry-run: the same readiness and range checks, nothing written; dynamic returns a network address. */
  dryRun(): IPAllocator {
    return new DryRunMetaAllocator(this);
  }

  destroy(): void {
    for (const e of this.#entries.values()) e.allocator.destroy();
    this.#o.bitmap?.destroy();
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `outer` strictly contains `inner` (equal CIDRs share one entry). */
function contains(outer: CIDR, inner: CIDR): boolean {
  return outer.prefix < inner.prefix && cidrContainsCIDR(outer, inner);
}

/** Dry run of the MetaAllocator: readiness and CIDR checks over all its allocators. */
class DryRunMetaAllocator extends DryRunView {
  readonly #meta: MetaAllocator;

  constructor(meta: MetaAllocator) {
    super(meta);
    this.#meta = meta;
  }

  async allocate(ip: IP): Promise<void> {
    if (!this.#meta.isSynced()) throw new ErrNotReady();
    if (!this.#meta.allocatorFor(ip)) throw new ErrMismatchedNetwork();
  }

  async allocateNext(): Promise<IP> {
    if (!this.#meta.isSynced()) throw new ErrNotReady();
    const a = this.#meta.allocators().find((x) => x.ready);
    if (!a) throw new ErrFull();
    return a.cidr().ip;
  }
}
