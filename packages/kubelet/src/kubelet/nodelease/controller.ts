/**
 * Node heartbeats through Leases (pkg/kubelet/nodelease, component-helpers'
 * `lease.controller`): each Node's `kube-node-lease/<name>` is created owned by the Node and
 * renewed by an update of the lease last seen, fetched again after a conflict. Upstream's `Run`
 * is `wait.JitterUntilWithContext(ctx, c.sync, renewInterval, 0.04, true)`: sliding, so a Node
 * renews renewInterval (10 s, a quarter of the 40 s duration) after its last renewal ended, and
 * a slow apiserver (latency L) gets a Node's renewal every 10 s + L, never two at once. All the
 * Nodes of the process share one timer, as kwok's node lease controller: it ticks `slots` times
 * per interval, and a Node whose renewal ends waits in the wheel slot of the tick one interval
 * later (Node i starts in slot i mod slots), so 1,000 Nodes make a steady stream of writes, not a
 * burst, with no timer or closure per Node. Upstream's 4 % jitter is left out: the Nodes are
 * spread over the interval from the start.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { describeError, isAlreadyExists, isConflict, isNotFound } from "@servicenet/client/errors";
import { newRESTClient, type RESTClient, defaultKubernetesUserAgent } from "@servicenet/client/rest";
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

/** Ticks per renew interval: each renews a hundredth of the Nodes. */
const slots = 100;

/** One Node's lease state: what is needed to write the next renewal. */
interface Held {
  name: string;
  nodeUID: string;
  resourceVersion: string | undefined;
  inFlight: boolean;
  /** The tick of its next renewal (in the wheel slot tick mod slots). */
  due: number;
}

export interface LeaseControllerOptions {
  kubeConfig: KubeConfig;
  /** The heartbeat client (the kubelet's, with its timeout); default a client of `kubeConfig`. */
  client?: RESTClient;
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
  /** The Nodes waiting for their next renewal, by the slot of its tick. */
  readonly #wheel: Held[][] = Array.from({ length: slots }, () => []);
  #tick = 0;
  /** When the last tick ran (the next, #tick, is one tick later). */
  #tickedAt = 0;
  #timer: TimerHandle | undefined;
  renewals = 0;

  constructor(o: LeaseControllerOptions) {
    this.#rest = o.client ?? newRESTClient(o.kubeConfig, { userAgent: defaultKubernetesUserAgent("kubelet") });
    this.#clock = o.clock ?? realClock;
    this.#log = o.logger ?? noopLogger;
    this.#interval = o.renewIntervalMs ?? defaultRenewIntervalMs;
  }

  /** Adds a registered Node; its first renewal (creating the Lease if needed) is within one interval. */
  add(name: string, nodeUID: string): void {
    const h = { name, nodeUID, resourceVersion: undefined, inFlight: false, due: this.#tick + (this.#held.length % slots) };
    this.#held.push(h);
    this.#wheel[h.due % slots]!.push(h);
  }

  /** Stops renewing Node `name`'s Lease (its kubelet is gone); a renewal in flight is its last. */
  remove(name: string): void {
    const i = this.#held.findIndex((h) => h.name === name);
    if (i < 0) return;
    this.#held.splice(i, 1);
    for (let s = 0; s < slots; s++) this.#wheel[s] = this.#wheel[s]!.filter((h) => h.name !== name);
  }

  /** Renewals sent and not yet answered. */
  get inFlight(): number {
    let n = 0;
    for (const h of this.#held) if (h.inFlight) n++;
    return n;
  }

  /** Ticks until `stop`: every interval/slots, the Nodes due at that tick. */
  start(): void {
    const next = () => {
      this.#timer = this.#clock.setTimeout(() => {
        this.#tickedAt = this.#clock.now();
        this.#renewDue(this.#tick++);
        next();
      }, this.#interval / slots);
    };
    this.#tickedAt = this.#clock.now();
    if (this.#timer === undefined) next();
  }

  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #renewDue(tick: number): void {
    const slot = this.#wheel[tick % slots]!;
    const waiting: Held[] = [];
    for (const h of slot) {
      if (h.due > tick) {
        waiting.push(h);
        continue;
      }
      h.inFlight = true;
      this.#renew(h)
        .catch((err: unknown) => this.#log.error("failed to update lease", { node: h.name, err: describeError(err) }))
        .finally(() => this.#after(h));
    }
    this.#wheel[tick % slots] = waiting;
  }

  // Sliding: the next renewal at the first tick at least one interval after this one ended (the
  // next tick, #tick, is due one tick after the last).
  #after(h: Held): void {
    h.inFlight = false;
    if (!this.#held.includes(h)) return;
    const tickMs = this.#interval / slots;
    const wait = this.#clock.now() + this.#interval - (this.#tickedAt + tickMs);
    h.due = this.#tick + Math.max(0, Math.ceil(wait / tickMs));
    this.#wheel[h.due % slots]!.push(h);
  }

  /** One renewal: update the lease last seen; create it when absent; re-read it after a conflict. */
  async #renew(h: Held): Promise<void> {
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
