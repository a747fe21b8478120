/**
 * RepairIPAddress (upstream pkg/registry/core/service/ipallocator/controller/repairip.go): the
 * IPAddress-allocator repair loop. A first pass over every Service and every allocator-managed
 * IPAddress gates readiness; then event-driven workers keep Services and IPAddresses consistent:
 * missing IPAddresses are recreated (this is also how bitmap-era Services migrate), wrong
 * references and labels repaired, orphans deleted after 60 s, duplicates and out-of-range
 * ClusterIPs reported as events. Handlers resync every `intervalMs`, so each object is re-checked
 * periodically.
 */
import { defaultServiceCIDRName, serviceCIDRControllerNames, type CIDR, type IP } from "@servicenet/api";
import { prefixContainsIP } from "@servicenet/api";
import { serviceCIDRPrefixes } from "../../../../../api/servicecidr/servicecidr.ts";
import type { KubeObject } from "../../../../../storage/index.ts";
import type { EventRecorder } from "@servicenet/client/tools/events";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { objectCacheKey, type InformerHandlers, type Lister } from "../../../../../util/informer/store-informer.ts";
import type { IPAddressClient } from "../ipaddress-client.ts";
import type { ClusterIPRepairMetrics } from "../metrics.ts";
import { backgroundClock as realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { managedByIPAllocator, syncIPAddress, syncService, type RepairSyncContext } from "./repairip-sync.ts";

/** upstream repairLoopInterval. */
export const repairLoopIntervalMs = 3 * 60 * 1000;
/** A key is dropped after this many failed syncs (5 ms·2^n: 5 ms ... 82 s). */
export const repairMaxRetries = 15;
/** Workers per queue (servicecidrs has one, serialised). */
export const repairWorkers = 5;
/** Event source / reporting controller. */
export const repairControllerName = serviceCIDRControllerNames.repairController;

/** An informer as the repair loop uses it: a cache plus handler registration. */
export interface RepairInformer extends Lister<KubeObject> {
  addEventHandler(handlers: InformerHandlers<KubeObject>, resyncMs?: number): void;
  waitForSync?(): Promise<void>;
}

export interface RepairIPAddressOptions {
  /** StoreInformer on `services/specs`. */
  services: RepairInformer;
  /** StoreInformer on `servicecidrs`. */
  serviceCIDRs: RepairInformer;
  /** StoreInformer on `ipaddresses`. */
  ipAddresses: RepairInformer;
  client: IPAddressClient;
  /** Component `ipallocator-repair-controller`. */
  recorder: EventRecorder;
  /** Resync period of the Service and IPAddress handlers (default 3 min). */
  intervalMs?: number;
  clock?: Clock;
  metrics?: ClusterIPRepairMetrics;
  /** Wait until the `kubernetes` ServiceCIDR is in the cache before the first pass (default true, as upstream HEAD). */
  waitForDefaultServiceCIDR?: boolean;
  /** Pause between first-pass attempts rejected as Forbidden (admission not ready yet); default 1 s. */
  firstPassRetryMs?: number;
  /** Where the loop logs (klog's contextual logger); its lines are V(2). */
  logger?: Logger;
  /** Reads a Service from storage (see RepairSyncContext.getService); without it the cache is trusted. */
  getService?: (namespace: string, name: string) => Promise<KubeObject | null>;
}

const pollMs = 100;
const conflictBackoffMs = [10, 50, 250];
const reasonOf = (e: unknown): string | undefined => (e as { reason?: string } | null)?.reason;

/** The IPAddress repair controller; construct it before the informers start so no event is missed. */
export class RepairIPAddress {
  readonly #o: RepairIPAddressOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #svcQueue: RateLimitingQueue;
  readonly #ipQueue: RateLimitingQueue;
  readonly #cidrQueue: RateLimitingQueue;
  readonly #ctx: RepairSyncContext;
  #prefixes: CIDR[] = [];

  constructor(opts: RepairIPAddressOptions) {
    this.#o = opts;
    this.#log = V(opts.logger ?? noopLogger, 2);
    this.#clock = opts.clock ?? realClock;
    this.#svcQueue = new RateLimitingQueue("services", this.#clock);
    this.#ipQueue = new RateLimitingQueue("ipaddresses", this.#clock);
    this.#cidrQueue = new RateLimitingQueue("servicecidrs", this.#clock);
    this.#ctx = {
      services: opts.services,
      ipAddresses: opts.ipAddresses,
      client: opts.client,
      recorder: opts.recorder,
      clock: this.#clock,
      metrics: opts.metrics,
      inRange: (ip) => this.#inRange(ip),
      requeueIPAddress: (name, ms) => this.#ipQueue.addAfter(name, ms),
      ...(opts.getService ? { getService: opts.getService } : {}),
    };
    const interval = opts.intervalMs ?? repairLoopIntervalMs;
    opts.services.addEventHandler(enqueueAll(this.#svcQueue), interval);
    opts.ipAddresses.addEventHandler(enqueueAll(this.#ipQueue), interval);
    opts.serviceCIDRs.addEventHandler(enqueueAll(this.#cidrQueue));
  }

  #inRange(ip: IP): boolean {
    return this.#prefixes.some((p) => prefixContainsIP(p, ip));
  }

  /** Rebuilds the prefix table from the ServiceCIDR cache (upstream's radix tree). */
  syncCIDRs(): void {
    this.#prefixes = this.#o.serviceCIDRs.list().flatMap((sc) => serviceCIDRPrefixes(sc));
  }

  /** Reconciles one Service (`namespace/name`). */
  syncService(key: string): Promise<void> {
    return syncService(this.#ctx, key);
  }

  /** Reconciles one IPAddress (its name). */
  syncIPAddress(key: string): Promise<void> {
    return syncIPAddress(this.#ctx, key);
  }

  /** One full pass over every Service, then every allocator-managed IPAddress; retried on Conflict. */
  async runOnce(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#doRunOnce();
      } catch (e) {
        if (reasonOf(e) !== "Conflict" || attempt >= conflictBackoffMs.length) throw e;
        await sleep(this.#clock, conflictBackoffMs[attempt]!);
      }
    }
  }

  async #doRunOnce(): Promise<void> {
    this.syncCIDRs();
    for (const svc of this.#o.services.list()) await this.syncService(objectCacheKey(svc));
    for (const ip of this.#o.ipAddresses.list()) if (managedByIPAllocator(ip)) await this.syncIPAddress(objectCacheKey(ip));
  }

  /**
   * Waits for the caches (and the default ServiceCIDR), runs the first pass, calls
   * `onFirstSuccess`, then runs the workers until `signal` aborts. A first pass rejected as
   * Forbidden (admission plugins not ready, upstream #136288) is retried; any other failure
   * rejects the promise, as upstream RunUntil returns and the PostStartHook fails.
   * Resolves once the workers have stopped (or at once if aborted before the first success).
   */
  async runUntil(onFirstSuccess: () => void, signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.#waitForCaches(signal))) return;
      if (
        this.#o.waitForDefaultServiceCIDR !== false &&
        !(await this.#waitUntil(() => this.#o.serviceCIDRs.get(defaultServiceCIDRName) !== undefined, signal))
      )
        return;
      if (!(await this.#firstPass(signal))) return;
      onFirstSuccess();
      const workers = [this.#worker(this.#cidrQueue, async () => this.syncCIDRs())];
      for (let i = 0; i < repairWorkers; i++)
        workers.push(
          this.#worker(this.#svcQueue, (k) => this.syncService(k)),
          this.#worker(this.#ipQueue, (k) => this.syncIPAddress(k)),
        );
      await new Promise<void>((resolve) =>
        signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      this.#shutDown();
      await Promise.all(workers);
    } finally {
      this.#shutDown();
    }
  }

  #synced(): boolean {
    return this.#o.services.hasSynced() && this.#o.serviceCIDRs.hasSynced() && this.#o.ipAddresses.hasSynced();
  }

  /**
   * cache.WaitForCacheSync: upstream polls every 100 ms. Informers that can tell when their first
   * list is in are awaited first, so that a fresh apiserver does not sleep a whole poll period
   * (most of an in-memory start); the poll stays for the others.
   */
  async #waitForCaches(signal: AbortSignal): Promise<boolean> {
    const { services, serviceCIDRs, ipAddresses } = this.#o;
    const waits = [services, serviceCIDRs, ipAddresses].map((i) => i.waitForSync?.());
    if (!this.#synced() && waits.every((w) => w !== undefined) && !signal.aborted) {
      let onAbort = (): void => undefined;
      const aborted = new Promise<void>((r) => (onAbort = r));
      signal.addEventListener("abort", onAbort, { once: true });
      await Promise.race([Promise.all(waits), aborted]);
      signal.removeEventListener("abort", onAbort);
    }
    return this.#waitUntil(() => this.#synced(), signal);
  }

  async #waitUntil(cond: () => boolean, signal: AbortSignal): Promise<boolean> {
    while (!cond()) if (!(await sleep(this.#clock, pollMs, signal))) return false;
    return !signal.aborted;
  }

  async #firstPass(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      try {
        await this.runOnce();
        return !signal.aborted;
      } catch (e) {
        this.#o.metrics?.reconcileErrors.inc();
        if (reasonOf(e) !== "Forbidden") throw e;
        this.#log.info(`${repairControllerName}: first pass not admitted yet, retrying: ${String(e)}`);
        if (!(await sleep(this.#clock, this.#o.firstPassRetryMs ?? 1000, signal))) return false;
      }
    }
  }

  async #worker(q: RateLimitingQueue, sync: (key: string) => Promise<void>): Promise<void> {
    for (;;) {
      const key = await q.get();
      if (key === undefined) return;
      try {
        await sync(key);
        q.forget(key);
      } catch (e) {
        this.#handleErr(q, key, e);
      } finally {
        q.done(key);
      }
    }
  }

  #handleErr(q: RateLimitingQueue, key: string, e: unknown): void {
    if (q.numRequeues(key) < repairMaxRetries) {
      this.#log.info(`${repairControllerName}: error syncing ${q.name} ${key}, retrying: ${String(e)}`);
      q.addRateLimited(key);
      return;
    }
    this.#log.info(`${repairControllerName}: dropping ${q.name} ${key} out of the queue: ${String(e)}`);
    q.forget(key);
  }

  #shutDown(): void {
    this.#svcQueue.shutDown();
    this.#ipQueue.shutDown();
    this.#cidrQueue.shutDown();
  }
}

function enqueueAll(q: RateLimitingQueue): InformerHandlers<KubeObject> {
  return {
    onAdd: (o) => q.add(objectCacheKey(o)),
    onUpdate: (_old, o) => q.add(objectCacheKey(o)),
    onDelete: (o) => q.add(objectCacheKey(o)),
  };
}
