/**
 * The legacy ClusterIP repair loop (upstream pkg/registry/core/service/ipallocator/controller/
 * repair.go): periodically rebuilds each family's bitmap from the list of
 * all Services, reports what is wrong as events on the Services, frees IPs no Service has used
 * for three consecutive runs, and writes the result back with a compare-and-swap. It runs when
 * MultiCIDRServiceAllocator is off; it (or the dual-write initialisation) creates the
 * RangeAllocation objects.
 */
import { formatCIDR, formatIP, parseIPSloppy, type CIDR, type IPFamily, type Service } from "@servicenet/api";
import type { EventRecorder } from "@servicenet/client/tools/events";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import type { RangeAllocationSnapshot, RangeRegistry } from "../../allocator/storage/keys.ts";
import { Range } from "../bitmap.ts";
import { ErrAllocated, ErrFull, ErrNotInRange } from "../interfaces.ts";
import type { ClusterIPRepairMetrics } from "../metrics.ts";
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
} from "./repair-loop.ts";

/** The events' source / reporting controller. */
export const ipRepairComponent = "ipallocator-repair-controller";

/** Options of the ClusterIP Repair. */
export interface RepairOptions {
  /** Every Service of every namespace (upstream lists through the API, without a resourceVersion). */
  listServices: () => Promise<Service[]>;
  network: CIDR;
  alloc: RangeRegistry;
  secondaryNetwork?: CIDR | null;
  secondaryAlloc?: RangeRegistry | null;
  recorder: EventRecorder;
  /** Period of runUntil; default 3 min (`repairLoopInterval`). */
  intervalMs?: number;
  metrics?: ClusterIPRepairMetrics;
  /** Where the loop logs (klog's contextual logger); its lines are V(2). */
  logger?: Logger;
  sleep?: Sleep;
  /** Snapshot read poll: every 1 s for up to 10 s. */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
  /** Builds the rebuilt ranges (tests inject failing ones). */
  newRange?: (cidr: CIDR) => Range;
  /**
   * Bitmap upkeep only, without events or error metrics: the dual-write apiserver runs it so
   * that bits of allocations that never became Services (a crash between the bitmap write and
   * the Service write) are freed after the usual 3 runs. Upstream runs no legacy repair in
   * dual-write mode, so those bits leak there; RepairIPAddress reports the problems instead.
   */
  quiet?: boolean;
}

interface FamilyState {
  network: CIDR;
  alloc: RangeRegistry;
  leaks: Map<string, number>;
}

/** `Repair`: the controller; call runUntil (or runOnce in tests). */
export class Repair {
  readonly #o: RepairOptions;
  readonly #log: Logger;
  readonly #families = new Map<IPFamily, FamilyState>();

  constructor(o: RepairOptions) {
    this.#o = o;
    this.#log = V(o.logger ?? noopLogger, 2);
    this.#families.set(o.network.family, { network: o.network, alloc: o.alloc, leaks: new Map() });
    if (o.secondaryNetwork && o.secondaryAlloc) {
      this.#families.set(o.secondaryNetwork.family, { network: o.secondaryNetwork, alloc: o.secondaryAlloc, leaks: new Map() });
    }
  }

  /** The families this repair works on, primary first. */
  families(): IPFamily[] {
    return [...this.#families.keys()];
  }

  /** Runs now and every interval until `signal` aborts; `onFirstSuccess` after the first good run. */
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

  /** One verification pass, retried on conflict; throws if it could not complete. */
  async runOnce(): Promise<void> {
    try {
      await retryOnConflict(() => this.#doRunOnce(), this.#o.sleep ?? defaultSleep);
    } catch (err) {
      this.#o.metrics?.reconcileErrors.inc();
      throw err;
    }
  }

  async #snapshots(): Promise<Map<IPFamily, RangeAllocationSnapshot>> {
    const out = new Map<IPFamily, RangeAllocationSnapshot>();
    try {
      await pollImmediate(
        this.#o.pollIntervalMs ?? 1000,
        this.#o.pollTimeoutMs ?? 10_000,
        async () => {
          for (const [family, f] of this.#families)
            if (!out.has(family)) out.set(family, (await f.alloc.get()) ?? { range: "", data: "", resourceVersion: "" });
        },
        this.#o.sleep ?? defaultSleep,
      );
    } catch (err) {
      throw new Error(`unable to refresh the service IP block: ${(err as Error).message}`, { cause: err });
    }
    return out;
  }

  async #doRunOnce(): Promise<void> {
    const snapshots = await this.#snapshots();
    const stored = new Map<IPFamily, Range>();
    for (const [family, snap] of snapshots) {
      if (snap.range === "") snap.range = formatCIDR(this.#families.get(family)!.network);
      try {
        stored.set(family, Range.fromSnapshot(snap));
      } catch (err) {
        throw new Error(`unable to rebuild allocator from snapshots for family:${family} with error:${(err as Error).message}`, {
          cause: err,
        });
      }
    }
    let services: Service[];
    try {
      services = await this.#o.listServices();
    } catch (err) {
      throw new Error(`unable to refresh the service IP block: ${(err as Error).message}`, { cause: err });
    }
    const rebuilt = new Map<IPFamily, Range>();
    for (const [family, f] of this.#families) rebuilt.set(family, this.#o.newRange?.(f.network) ?? new Range(f.network));
    for (const svc of services) this.#checkService(svc, stored, rebuilt);
    for (const [family, f] of this.#families) this.#checkLeaked(f, stored.get(family)!, rebuilt.get(family)!);
    for (const [family, f] of this.#families) await this.#save(f.alloc, rebuilt.get(family)!, snapshots.get(family)!);
  }

  #checkService(svc: Service, stored: Map<IPFamily, Range>, rebuilt: Map<IPFamily, Range>): void {
    const spec = svc.spec ?? {};
    if (!spec.clusterIP || spec.clusterIP === "None") return; // IsServiceIPSet
    const ips = spec.clusterIPs && spec.clusterIPs.length > 0 ? spec.clusterIPs : [spec.clusterIP];
    const warn = (reason: string, action: string, msg: string): void => {
      if (!this.#o.quiet) this.#o.recorder.eventf(serviceReference(svc), null, "Warning", reason, action, msg);
    };
    const fail = (type: string, line: string): void => {
      if (this.#o.quiet) return;
      this.#o.metrics?.ipErrors.inc({ type });
      this.#log.info(line);
    };
    for (const text of ips) {
      const ip = parseIPSloppy(text);
      if (!ip) {
        fail("invalid", `the cluster IP ${text} for service ${serviceKey(svc)} is not a valid IP; please recreate`);
        warn("ClusterIPNotValid", "ClusterIPValidation", `Cluster IP ${text} is not a valid IP; please recreate service`);
        continue;
      }
      const family = ip.family;
      const actual = rebuilt.get(family);
      const s = formatIP(ip);
      if (!actual) {
        fail(
          "invalid",
          `the cluster IP ${s}(${family}) for service ${serviceKey(svc)} is of ip family that is no longer configured on cluster; please recreate`,
        );
        warn(
          "ClusterIPNotValid",
          "ClusterIPValidation",
          `Cluster IP ${s}(${family}) is of ip family that is no longer configured on cluster; please recreate service`,
        );
        continue;
      }
      try {
        actual.allocateSync(ip);
      } catch (err) {
        const network = formatCIDR(this.#families.get(family)!.network);
        if (err instanceof ErrAllocated) {
          fail(
            "duplicate",
            `the cluster IP [${family}]:${s} for service ${serviceKey(svc)} was assigned to multiple services; please recreate`,
          );
          warn(
            "ClusterIPAlreadyAllocated",
            "ClusterIPAllocation",
            `Cluster IP [${family}]:${s} was assigned to multiple services; please recreate service`,
          );
          continue;
        }
        if (err instanceof ErrNotInRange) {
          fail(
            "outOfRange",
            `the cluster IP [${family}]:${s} for service ${serviceKey(svc)} is not within the service CIDR ${network}; please recreate`,
          );
          warn(
            "ClusterIPOutOfRange",
            "ClusterIPAllocation",
            `Cluster IP [${family}]:${s} is not within the service CIDR ${network}; please recreate service`,
          );
          continue;
        }
        if (err instanceof ErrFull) {
          const cidr = formatCIDR(actual.cidr());
          this.#o.metrics?.ipErrors.inc({ type: "full" });
          warn(
            "ServiceCIDRFull",
            "ClusterIPAllocation",
            `Service CIDR ${cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [${family}]:${s}`,
          );
          throw new Error(
            `the service CIDR ${cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [${family}]:${s}`,
          );
        }
        this.#o.metrics?.ipErrors.inc({ type: "unknown" });
        warn("UnknownError", "ClusterIPAllocation", `Unable to allocate cluster IP [${family}]:${s} due to an unknown error`);
        throw new Error(
          `unable to allocate cluster IP [${family}]:${s} for service ${serviceKey(svc)} due to an unknown error, exiting: ${(err as Error).message}`,
          { cause: err },
        );
      }
      const was = stored.get(family);
      if (was?.has(ip)) {
        was.releaseSync(ip); // what stays in `stored` is a leak candidate
      } else {
        fail("repair", `the cluster IP [${family}]:${s} for service ${serviceKey(svc)} is not allocated; repairing`);
        warn("ClusterIPNotAllocated", "ClusterIPAllocation", `Cluster IP [${family}]:${s} is not allocated; repairing`);
      }
      this.#families.get(family)!.leaks.delete(s); // it is used, so it can't be leaked
    }
  }

  #checkLeaked(f: FamilyState, stored: Range, rebuilt: Range): void {
    const candidates: string[] = [];
    stored.forEach((ip) => candidates.push(formatIP(ip)));
    const log = this.#log;
    checkLeaked(
      f.leaks,
      candidates,
      (s) => {
        try {
          rebuilt.allocateSync(parseIPSloppy(s)!);
        } catch (err) {
          log.info(`the cluster IP ${s} may have leaked, but can not be allocated: ${(err as Error).message}`);
        }
      },
      (s) => {
        this.#o.metrics?.ipErrors.inc({ type: "leak" });
        log.info(`the cluster IP ${s} appears to have leaked: cleaning up`);
      },
      (s) => log.info(`the cluster IP ${s} may have leaked: flagging for later clean up`),
    );
  }

  async #save(alloc: RangeRegistry, rebuilt: Range, snapshot: RangeAllocationSnapshot): Promise<void> {
    const snap = rebuilt.snapshot();
    try {
      await alloc.createOrUpdate({ range: snap.range, data: snap.data, resourceVersion: snapshot.resourceVersion ?? "" });
    } catch (err) {
      if (isConflict(err)) throw err;
      throw new Error(`unable to persist the updated service IP allocations: ${(err as Error).message}`, { cause: err });
    }
  }
}
