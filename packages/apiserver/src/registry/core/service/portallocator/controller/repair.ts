/**
 * The NodePort repair loop (upstream pkg/registry/core/service/portallocator/controller/
 * repair.go, "a copy for ports" of the ClusterIP repair): rebuilds the NodePort bitmap from every
 * Service's nodePorts and healthCheckNodePort, reports problems as events, frees ports no Service
 * used for three consecutive runs, and writes the bitmap back with a compare-and-swap. It runs in
 * every allocator mode (NodePorts have no IPAddress-style objects).
 */
import type { Service } from "@servicenet/api";
import type { EventRecorder } from "@servicenet/client/tools/events";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import type { RangeAllocationSnapshot, RangeRegistry } from "../../allocator/storage/keys.ts";
import {
  checkLeaked,
  defaultSleep,
  isConflict,
  pollImmediate,
  repairLoopInterval,
  retryOnConflict,
  runUntil,
  serviceKey,
  serviceReference,
  type Sleep,
} from "../../ipallocator/controller/repair-loop.ts";
import { PortAllocator } from "../allocator.ts";
import { ErrPortAllocated, ErrPortNotInRange, ErrPortRangeFull } from "../interfaces.ts";
import { formatPortRange, type PortRange } from "../port-range.ts";
import type { NodePortRepairMetrics } from "./metrics.ts";

/** The events' source / reporting controller. */
export const portRepairComponent = "portallocator-repair-controller";

/** Options of the NodePort Repair. */
export interface PortRepairOptions {
  listServices: () => Promise<Service[]>;
  portRange: PortRange;
  alloc: RangeRegistry;
  recorder: EventRecorder;
  /** Default 3 min. */
  intervalMs?: number;
  metrics?: NodePortRepairMetrics;
  /** Where the loop logs (klog's contextual logger); its lines are V(2). */
  logger?: Logger;
  sleep?: Sleep;
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
  /** Builds the rebuilt allocator (tests inject failing ones). */
  newAllocator?: (pr: PortRange) => PortAllocator;
}

/**
 * `collectServiceNodePorts` of repair.go: the same nodePort with the same protocol is listed
 * again (so a duplicate within one Service is reported), with another protocol only once; the
 * healthCheckNodePort unless a port already uses it with a protocol other than TCP.
 */
export function collectServiceNodePorts(svc: Service): number[] {
  const out: number[] = [];
  const seen = new Map<number, Set<string>>();
  for (const p of svc.spec?.ports ?? []) {
    const nodePort = p.nodePort ?? 0;
    if (nodePort === 0) continue;
    const proto = p.protocol ?? "";
    const s = seen.get(nodePort);
    if (!s) {
      seen.set(nodePort, new Set([proto]));
      out.push(nodePort);
    } else if (s.has(proto)) {
      out.push(nodePort);
    } else {
      s.add(proto);
    }
  }
  const health = svc.spec?.healthCheckNodePort ?? 0;
  if (health !== 0) {
    const s = seen.get(health);
    if (!s || s.has("TCP")) out.push(health);
  }
  return out;
}

/** `Repair` for NodePorts. */
export class PortRepair {
  readonly #o: PortRepairOptions;
  readonly #log: Logger;
  readonly #leaks = new Map<number, number>();

  constructor(o: PortRepairOptions) {
    this.#o = o;
    this.#log = V(o.logger ?? noopLogger, 2);
  }

  runUntil(onFirstSuccess: () => void, signal: AbortSignal): Promise<void> {
    return runUntil(
      () => this.runOnce(),
      this.#o.intervalMs ?? repairLoopInterval,
      onFirstSuccess,
      signal,
      (e) => this.#log.info(String(e instanceof Error ? e.message : e)),
      this.#o.sleep ?? defaultSleep,
    );
  }

  async runOnce(): Promise<void> {
    try {
      await retryOnConflict(() => this.#doRunOnce(), this.#o.sleep ?? defaultSleep);
    } catch (err) {
      this.#o.metrics?.reconcileErrors.inc();
      throw err;
    }
  }

  async #doRunOnce(): Promise<void> {
    const sleep = this.#o.sleep ?? defaultSleep;
    let snapshot: RangeAllocationSnapshot;
    try {
      snapshot = (await pollImmediate(
        this.#o.pollIntervalMs ?? 1000,
        this.#o.pollTimeoutMs ?? 10_000,
        () => this.#o.alloc.get(),
        sleep,
      )) ?? { range: "", data: "", resourceVersion: "" };
    } catch (err) {
      throw new Error(`unable to refresh the port allocations: ${(err as Error).message}`, { cause: err });
    }
    const pr = formatPortRange(this.#o.portRange);
    if (snapshot.range === "") snapshot.range = pr;
    let stored: PortAllocator;
    try {
      stored = PortAllocator.fromSnapshot(snapshot);
    } catch (err) {
      throw new Error(`unable to rebuild allocator from snapshot: ${(err as Error).message}`, { cause: err });
    }
    let services: Service[];
    try {
      services = await this.#o.listServices();
    } catch (err) {
      throw new Error(`unable to refresh the port block: ${(err as Error).message}`, { cause: err });
    }
    const rebuilt = this.#o.newAllocator?.(this.#o.portRange) ?? new PortAllocator(this.#o.portRange);
    for (const svc of services) this.#checkService(svc, stored, rebuilt, pr);
    this.#checkLeaked(stored, rebuilt);
    const snap = rebuilt.snapshot();
    try {
      await this.#o.alloc.createOrUpdate({ range: snap.range, data: snap.data, resourceVersion: snapshot.resourceVersion ?? "" });
    } catch (err) {
      if (isConflict(err)) throw err;
      throw new Error(`unable to persist the updated port allocations: ${(err as Error).message}`, { cause: err });
    }
  }

  #checkService(svc: Service, stored: PortAllocator, rebuilt: PortAllocator, pr: string): void {
    const warn = (reason: string, msg: string): void => {
      this.#o.recorder.eventf(serviceReference(svc), null, "Warning", reason, "PortAllocation", msg);
    };
    const fail = (type: string, line: string): void => {
      this.#o.metrics?.portErrors.inc({ type });
      this.#log.info(line);
    };
    for (const port of collectServiceNodePorts(svc)) {
      try {
        rebuilt.allocateSync(port);
      } catch (err) {
        if (err instanceof ErrPortAllocated) {
          fail("duplicate", `the node port ${port} for service ${serviceKey(svc)} was assigned to multiple services; please recreate`);
          warn("PortAlreadyAllocated", `Port ${port} was assigned to multiple services; please recreate service`);
          continue;
        }
        if (err instanceof ErrPortNotInRange) {
          fail("outOfRange", `the port ${port} for service ${serviceKey(svc)} is not within the port range ${pr}; please recreate`);
          warn("PortOutOfRange", `Port ${port} is not within the port range ${pr}; please recreate service`);
          continue;
        }
        if (err instanceof ErrPortRangeFull) {
          this.#o.metrics?.portErrors.inc({ type: "full" });
          warn("PortRangeFull", `Port range ${pr} is full; you must widen the port range in order to create new services`);
          throw new Error(`the port range ${pr} is full; you must widen the port range in order to create new services`);
        }
        this.#o.metrics?.portErrors.inc({ type: "unknown" });
        warn("UnknownError", `Unable to allocate port ${port} due to an unknown error`);
        throw new Error(
          `unable to allocate port ${port} for service ${serviceKey(svc)} due to an unknown error, exiting: ${(err as Error).message}`,
          { cause: err },
        );
      }
      if (stored.has(port)) {
        stored.releaseSync(port); // what stays in `stored` is a leak candidate
      } else {
        fail("repair", `the node port ${port} for service ${serviceKey(svc)} is not allocated; repairing`);
        warn("PortNotAllocated", `Port ${port} is not allocated; repairing`);
      }
      this.#leaks.delete(port); // it is used, so it can't be leaked
    }
  }

  #checkLeaked(stored: PortAllocator, rebuilt: PortAllocator): void {
    const candidates: number[] = [];
    stored.forEach((p) => candidates.push(p));
    const log = this.#log;
    checkLeaked(
      this.#leaks,
      candidates,
      (p) => {
        try {
          rebuilt.allocateSync(p);
        } catch (err) {
          log.info(`the node port ${p} may have leaked, but can not be allocated: ${(err as Error).message}`);
        }
      },
      (p) => {
        this.#o.metrics?.portErrors.inc({ type: "leak" });
        log.info(`the node port ${p} appears to have leaked: cleaning up`);
      },
      (p) => log.info(`the node port ${p} may have leaked: flagging for later clean up`),
    );
  }
}
