/**
 * The ServiceCIDR controller of the controller-manager
 * (pkg/controller/servicecidrs): ServiceCIDR and allocator-managed
 * IPAddress events enqueue ServiceCIDR names; sync applies decideServiceCIDR.
 */
import {
  cidrsOverlap,
  ipAllocatorControllerName,
  labelIPAddressManagedBy,
  parseCIDR,
  parseIP,
  prefixContainsIP,
  serviceCIDRConditionReady,
  serviceCIDRProtectionFinalizer,
  setCondition,
  type Condition,
  type IPAddress,
  type ServiceCIDR,
} from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import type { Informer } from "@servicenet/client/tools/cache";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { Controller } from "../framework/controller.ts";
import { formatRFC3339Nano } from "../util/endpoint/trigger-time-tracker.ts";
import { decideServiceCIDR } from "./decision.ts";

/** Writes of ServiceCIDRs; both use the object's resourceVersion (409 on a stale one) and return the stored object. */
export interface ServiceCIDRClient {
  updateFinalizers(cidr: ServiceCIDR, finalizers: string[]): Promise<ServiceCIDR>;
  updateStatus(cidr: ServiceCIDR): Promise<ServiceCIDR>;
}

export interface ServiceCIDRControllerDeps {
  serviceCIDRs: Informer<ServiceCIDR>;
  ipAddresses: Informer<IPAddress>;
  client: ServiceCIDRClient;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
  /** See ServiceCIDRDecisionInput.deletingCIDRsCover (false by default). */
  deletingCIDRsCover?: boolean;
}

const prefixes = (sc: ServiceCIDR) => (sc.spec.cidrs ?? []).map(parseCIDR).filter((c) => c !== null);

export class ServiceCIDRController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: ServiceCIDRControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;

  constructor(deps: ServiceCIDRControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("servicecidrs", this.#clock);
    // Overlapping ServiceCIDRs are re-evaluated too: one may be the cover that lets another go (or stops being it).
    const withOverlaps = (sc: ServiceCIDR) => {
      this.queue.add(sc.metadata.name ?? "");
      for (const o of deps.serviceCIDRs.list())
        if (prefixes(o).some((p) => prefixes(sc).some((q) => cidrsOverlap(p, q)))) this.queue.add(o.metadata.name ?? "");
    };
    deps.serviceCIDRs.addEventHandler({ onAdd: withOverlaps, onUpdate: (_o, n) => withOverlaps(n), onDelete: withOverlaps });
    // An IPAddress add may block a deletion; a delete may unblock one.
    const byIP = (ipa: IPAddress) => {
      if (ipa.metadata.labels?.[labelIPAddressManagedBy] !== ipAllocatorControllerName) return;
      const ip = parseIP(ipa.metadata.name ?? "");
      if (ip === null) return;
      for (const sc of deps.serviceCIDRs.list())
        if (prefixes(sc).some((p) => prefixContainsIP(p, ip))) this.queue.add(sc.metadata.name ?? "");
    };
    deps.ipAddresses.addEventHandler({ onAdd: byIP, onDelete: byIP });
    this.#runner = new Controller({
      name: "service-cidr-controller",
      queue: this.queue,
      sync: (k) => this.sync(k),
      informers: [deps.serviceCIDRs, deps.ipAddresses],
      logger: this.#log,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** Reconciles ServiceCIDR `name`. */
  async sync(name: string): Promise<void> {
    let sc = this.#d.serviceCIDRs.get(name);
    if (sc === undefined) return;
    const d = decideServiceCIDR({
      cidr: sc,
      allCIDRs: this.#d.serviceCIDRs.list(),
      ipAddresses: this.#d.ipAddresses.list(),
      now: this.#clock.now(),
      deletingCIDRsCover: this.#d.deletingCIDRsCover ?? false,
    });
    const finalizers = sc.metadata.finalizers ?? [];
    if (d.addFinalizer) sc = await this.#d.client.updateFinalizers(sc, [...finalizers, serviceCIDRProtectionFinalizer]);
    if (d.removeFinalizer) {
      await this.#d.client.updateFinalizers(
        sc,
        finalizers.filter((f) => f !== serviceCIDRProtectionFinalizer),
      );
      V(this.#log, 4).info("Removed protection finalizer from ServiceCIDR", { name });
      return;
    }
    if (d.blockingIPs.length > 0)
      this.#log.info("Deleting ServiceCIDR blocked by IP address", { name, ips: d.blockingIPs.slice(0, 10), count: d.blockingIPs.length });
    if (d.requeueAfterMs !== undefined) this.queue.addAfter(name, d.requeueAfterMs);
    if (d.ready !== undefined) await this.#setReady(sc, d.ready);
  }

  async #setReady(sc: ServiceCIDR, ready: { status: "True" | "False"; reason: string; message: string }): Promise<void> {
    const conditions: Condition[] = [...(sc.status?.conditions ?? [])];
    const next: Condition = {
      type: serviceCIDRConditionReady,
      ...ready,
      lastTransitionTime: formatRFC3339Nano(Math.floor(this.#clock.now() / 1000) * 1000),
    };
    if (!setCondition(conditions, next)) return;
    await this.#d.client.updateStatus({
      ...sc,
      status: { ...sc.status, conditions: conditions as NonNullable<ServiceCIDR["status"]>["conditions"] },
    });
  }
}
