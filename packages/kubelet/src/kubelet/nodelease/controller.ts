/**
 * Node heartbeats through Leases (pkg/kubelet/nodelease, component-helpers'
 * `lease.controller`): each Node's `kube-node-lease/<name>` is created owned by the Node and
 * renewed every renewInterval (upstream's 10 s, a quarter of the 40 s duration) by an update of
 * the lease last seen, fetched again after a conflict. The Nodes' renewals are spread evenly over
 * the interval so 1,000 Nodes make a steady stream of writes, not a burst.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { describeError, isAlreadyExists, isConflict, isNotFound } from "@servicenet/client/errors";
import { newRESTClient, type RESTClient } from "@servicenet/client/rest";
import { realClock, type Clock, type TimerHandle } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { nodeLease } from "../../nodestatus/setters.ts";
import { microTime } from "../status/time.ts";

/** Upstream's renew interval: 0.25 of the 40 s lease duration. */
export const defaultRenewIntervalMs = 10_000;

const leasesPath = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";

interface LeaseMeta {
  metadata?: { resourceVersion?: string };
}

/** One Node's lease state: what is needed to write the next renewal. */
interface Held {
  name: string;
  nodeUID: string;
  resourceVersion: string | undefined;
}

export interface LeaseControllerOptions {
  kubeConfig: KubeConfig;
  clock?: Clock;
  logger?: Logger;
  renewIntervalMs?: number;
}

/** Renews the Leases of the process's Nodes. */
export class NodeLeaseController {
  readonly #rest: RESTClient;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #interval: number;
  readonly #held: Held[] = [];
  readonly #timers = new Set<TimerHandle>();
  #stopped = false;
  renewals = 0;

  constructor(o: LeaseControllerOptions) {
    this.#rest = newRESTClient(o.kubeConfig, { userAgent: "servicenet-kubelet" });
    this.#clock = o.clock ?? realClock;
    this.#log = o.logger ?? noopLogger;
    this.#interval = o.renewIntervalMs ?? defaultRenewIntervalMs;
  }

  /** Adds a registered Node; its first renewal (creating the Lease if needed) is at `offsetMs`. */
  add(name: string, nodeUID: string, offsetMs: number): void {
    const h: Held = { name, nodeUID, resourceVersion: undefined };
    this.#held.push(h);
    this.#schedule(h, offsetMs);
  }

  /** Spreads `count` Nodes' first renewals over one interval: the offset of Node `i`. */
  offset(i: number, count: number): number {
    return Math.floor((i * this.#interval) / Math.max(1, count));
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) this.#clock.clearTimeout(t);
    this.#timers.clear();
  }

  #schedule(h: Held, ms: number): void {
    if (this.#stopped) return;
    const t = this.#clock.setTimeout(() => {
      this.#timers.delete(t);
      this.renew(h).then(
        () => this.#schedule(h, this.#interval),
        (err: unknown) => {
          this.#log.error("failed to update lease", { node: h.name, err: describeError(err) });
          this.#schedule(h, this.#interval);
        },
      );
    }, ms);
    this.#timers.add(t);
  }

  /** One renewal: update the lease last seen; create it when absent; re-read it after a conflict. */
  async renew(h: Held): Promise<void> {
    const lease = nodeLease(h.name, h.nodeUID, microTime(this.#clock.now()));
    try {
      if (h.resourceVersion === undefined) {
        try {
          const created = await this.#rest.request<LeaseMeta>("POST", leasesPath, lease);
          h.resourceVersion = created.metadata?.resourceVersion;
          this.renewals++;
          return;
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          h.resourceVersion = (await this.#rest.request<LeaseMeta>("GET", `${leasesPath}/${h.name}`)).metadata?.resourceVersion;
        }
      }
      const meta = lease["metadata"] as Record<string, unknown>;
      meta["resourceVersion"] = h.resourceVersion;
      const updated = await this.#rest.request<LeaseMeta>("PUT", `${leasesPath}/${h.name}`, lease);
      h.resourceVersion = updated.metadata?.resourceVersion;
      this.renewals++;
    } catch (err) {
      // Next round starts over from a fresh read (or a create, if the Lease was deleted).
      if (isConflict(err) || isNotFound(err)) h.resourceVersion = undefined;
      throw err;
    }
  }
}
