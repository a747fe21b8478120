/**
 * Drives one family proxier: coalesces sync requests with a minimum period
 * (upstream's BoundedFrequencyRunner), applies each rendered sync, commits it
 * on success, forces a full sync after a failure, and records the metrics.
 */
import type { IptablesSyncResult } from "../iptables/proxier.ts";
import type { ProxyMetrics } from "../metrics/metrics.ts";
import type { NftablesSyncResult } from "../nftables/proxier.ts";
import type { BaseProxier } from "../proxy/base-proxier.ts";
import type { Applier } from "./appliers.ts";
import type { ProxierHealthUpdater } from "../healthcheck/proxier-health.ts";
import type { ServiceHealthServer } from "../healthcheck/service-health.ts";
import { cleanStaleEntries } from "../conntrack/cleanup.ts";
import type { Conntrack } from "../conntrack/conntrack.ts";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";

/** What the runner needs of a proxier: both family proxiers have this shape. */
interface SyncingProxier<R> extends Pick<
  BaseProxier,
  | "ipFamily"
  | "serviceChanges"
  | "endpointsChanges"
  | "markNeedFullSync"
  | "onSyncRequested"
  | "serviceHealthReport"
  | "svcPortMap"
  | "endpointsMap"
> {
  syncProxyRules(): R | null;
  commit(result: R): void;
}

type Backend =
  | { readonly kind: "iptables"; readonly proxier: SyncingProxier<IptablesSyncResult>; readonly applier: Applier<IptablesSyncResult> }
  | { readonly kind: "nftables"; readonly proxier: SyncingProxier<NftablesSyncResult>; readonly applier: Applier<NftablesSyncResult> };

export interface FamilyRunnerOptions {
  /** Syncs are at least this far apart (`--iptables-min-sync-period`, default 1 s). */
  readonly minSyncPeriodMs?: number;
  /** A sync is queued at least this often (`--iptables-sync-period`, default 30 s). */
  readonly syncPeriodMs?: number;
  readonly clock?: () => number;
  /** Where failed syncs and conntrack clean-ups are reported (upstream: klog.ErrorS). */
  readonly logger?: Logger;
  /** Told of every queued and every applied sync (the healthz server). */
  readonly health?: ProxierHealthUpdater;
  /** Given the health check node ports and local endpoints after every applied sync. */
  readonly serviceHealth?: Pick<ServiceHealthServer, "sync">;
  /** The conntrack table whose stale UDP flows are deleted after every applied sync. */
  readonly conntrack?: Conntrack;
}

export class FamilyRunner {
  readonly #b: Backend;
  readonly #metrics: ProxyMetrics;
  readonly #minSync: number;
  readonly #syncPeriod: number;
  readonly #clock: () => number;
  readonly #log: Logger;
  readonly #health: ProxierHealthUpdater | undefined;
  readonly #serviceHealth: Pick<ServiceHealthServer, "sync"> | undefined;
  readonly #conntrack: Conntrack | undefined;
  #running: Promise<void> | undefined;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #periodic: NodeJS.Timeout | undefined;
  #lastRun = -Infinity;
  #seenServiceChanges = 0;
  #seenEndpointChanges = 0;

  constructor(backend: Backend, metrics: ProxyMetrics, opts: FamilyRunnerOptions = {}) {
    this.#b = backend;
    this.#metrics = metrics;
    this.#minSync = opts.minSyncPeriodMs ?? 1000;
    this.#syncPeriod = opts.syncPeriodMs ?? 30_000;
    this.#clock = opts.clock ?? Date.now;
    this.#log = opts.logger ?? noopLogger;
    this.#health = opts.health;
    this.#serviceHealth = opts.serviceHealth;
    this.#conntrack = opts.conntrack;
  }

  get family(): string {
    return this.#b.proxier.ipFamily;
  }

  /** Hooks into the proxier's sync requests and starts the periodic resync. */
  start(): void {
    this.#b.proxier.onSyncRequested = () => this.request();
    this.#periodic = setInterval(() => this.request(), this.#syncPeriod);
    this.#periodic.unref();
  }

  stop(): void {
    this.#b.proxier.onSyncRequested = undefined;
    clearInterval(this.#periodic);
    clearTimeout(this.#timer);
  }

  /** Queues a sync: at once if the last one is old enough, otherwise when the minimum period ends. */
  request(): void {
    this.#metrics.syncProxyRulesLastQueuedTimestamp.set({ ip_family: this.family }, this.#clock() / 1000);
    this.#health?.queuedUpdate(this.family);
    if (this.#running !== undefined) {
      this.#dirty = true;
      return;
    }
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastRun + this.#minSync - this.#clock());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.syncNow();
    }, wait);
  }

  /** Runs one sync now (after any running one) and resolves when it is applied or has failed. */
  async syncNow(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    this.#running = this.#syncOnce().finally(() => {
      this.#running = undefined;
      if (this.#dirty) {
        this.#dirty = false;
        this.request();
      }
    });
    await this.#running;
  }

  async #syncOnce(): Promise<void> {
    const labels = { ip_family: this.family };
    this.#lastRun = this.#clock();
    this.#recordChanges();
    const b = this.#b;
    if (b.kind === "iptables") await this.#run(b.proxier, b.applier, (r) => this.#recordIptables(r), this.#iptablesFailed());
    else
      await this.#run(
        b.proxier,
        b.applier,
        (r) => this.#recordNftables(r),
        () => this.#metrics.nftablesSyncFailuresTotal.inc(labels),
      );
  }

  /** One sync of either backend: render, apply, commit (or force a full sync), metrics. */
  async #run<R extends IptablesSyncResult | NftablesSyncResult>(
    proxier: SyncingProxier<R>,
    applier: Applier<R>,
    recordBackend: (r: R) => void,
    recordFailure: (r: R) => void,
  ): Promise<void> {
    const labels = { ip_family: this.family };
    const start = performance.now();
    const result = proxier.syncProxyRules();
    if (result === null) return;
    try {
      await applier.apply(result);
      proxier.commit(result);
      recordBackend(result);
      this.#health?.updated(this.family);
      // As upstream, only after the rules are in place; errors are logged, not a failed sync.
      if (this.#serviceHealth !== undefined) await this.#serviceHealth.sync(proxier.ipFamily, proxier.serviceHealthReport());
      if (this.#conntrack !== undefined) await this.#reconcileConntrack(this.#conntrack, proxier);
      const now = this.#clock();
      this.#metrics.syncProxyRulesLastTimestamp.set(labels, now / 1000);
      for (const times of result.lastChangeTriggerTimes.values()) {
        for (const t of times) this.#metrics.networkProgrammingLatency.observe(labels, (now - t) / 1000);
      }
      this.#metrics.noLocalEndpointsTotal.set({ ...labels, traffic_policy: "internal" }, result.noLocalEndpointsInternal);
      this.#metrics.noLocalEndpointsTotal.set({ ...labels, traffic_policy: "external" }, result.noLocalEndpointsExternal);
    } catch (err) {
      this.#log.error(`${this.#b.kind} ${this.family} sync failed, next sync is full: ${(err as Error).message}`);
      proxier.markNeedFullSync();
      recordFailure(result);
    } finally {
      const seconds = (performance.now() - start) / 1000;
      this.#metrics.syncProxyRulesLatency.observe(labels, seconds);
      (result.full ? this.#metrics.syncFullProxyRulesLatency : this.#metrics.syncPartialProxyRulesLatency).observe(labels, seconds);
    }
  }

  /** conntrack.CleanStaleEntries at the end of a sync: failures are logged, never a failed sync. */
  async #reconcileConntrack(ct: Conntrack, proxier: Pick<BaseProxier, "ipFamily" | "svcPortMap" | "endpointsMap">): Promise<void> {
    const labels = { ip_family: this.family };
    const start = performance.now();
    try {
      const r = await cleanStaleEntries(ct, proxier.ipFamily, proxier.svcPortMap, proxier.endpointsMap);
      this.#metrics.conntrackReconcilerDeletedTotal.inc(labels, r.deleted);
      await ct.reconciled?.(proxier.ipFamily, r.frontends);
    } catch (err) {
      this.#log.error(`conntrack ${this.family}: failed to clear stale UDP entries: ${(err as Error).message}`);
    } finally {
      this.#metrics.conntrackReconcilerLatency.observe(labels, (performance.now() - start) / 1000);
    }
  }

  #iptablesFailed(): (r: IptablesSyncResult) => void {
    return (r) => {
      const labels = { ip_family: this.family };
      this.#metrics.iptablesRestoreFailuresTotal.inc(labels);
      if (!r.full) this.#metrics.iptablesPartialRestoreFailuresTotal.inc(labels);
    };
  }

  #recordNftables(r: NftablesSyncResult): void {
    for (const [set, n] of r.elementCounts) this.#metrics.nftablesElements.set({ ip_family: this.family, set }, n);
  }

  #recordIptables(r: IptablesSyncResult): void {
    const labels = { ip_family: this.family };
    this.#metrics.iptablesRulesTotal.set({ ...labels, table: "filter" }, r.filterRules);
    this.#metrics.iptablesRulesLast.set({ ...labels, table: "filter" }, r.filterRules);
    this.#metrics.iptablesRulesTotal.set({ ...labels, table: "nat" }, r.natRulesTotal);
    this.#metrics.iptablesRulesLast.set({ ...labels, table: "nat" }, r.natRulesLast);
  }

  #recordChanges(): void {
    const labels = { ip_family: this.family };
    const p = this.#b.proxier;
    this.#metrics.serviceChangesTotal.inc(labels, p.serviceChanges.changesTotal - this.#seenServiceChanges);
    this.#metrics.endpointChangesTotal.inc(labels, p.endpointsChanges.changesTotal - this.#seenEndpointChanges);
    this.#seenServiceChanges = p.serviceChanges.changesTotal;
    this.#seenEndpointChanges = p.endpointsChanges.changesTotal;
    this.#metrics.serviceChangesPending.set(labels, p.serviceChanges.pending);
    this.#metrics.endpointChangesPending.set(labels, p.endpointsChanges.pending);
  }
}
