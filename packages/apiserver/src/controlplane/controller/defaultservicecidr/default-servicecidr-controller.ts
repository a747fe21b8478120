/**
 * The default ServiceCIDR controller (upstream
 * pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go): creates the
 * `kubernetes` ServiceCIDR from `--service-cluster-ip-range` and recreates it when it is gone,
 * appends the secondary CIDR on a single -> dual-stack upgrade, and sets Ready=True when it matches
 * the flags. It never replaces a mismatching object ("first apiserver wins"); it reports it.
 * Like the kubernetes.default Service reconciler it runs every 10 s.
 */
import {
  defaultServiceCIDRName,
  findCondition,
  serviceCIDRConditionReady,
  serviceCIDRControllerNames,
  serviceCIDRMessages,
  type Condition,
  type ServiceCIDR,
} from "@servicenet/api";
import { GenericStore } from "../../../registry/generic/store.ts";
import type { UpdatedObjectInfo, UpdateParams } from "../../../registry/generic/options.ts";
import { serviceCIDRStrategy } from "../../../registry/networking/servicecidr/strategy.ts";
import { backgroundClock as realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { applyServerSideApply, type JSONObject } from "../../../server/patch/index.ts";
import type { KubeObject, Store } from "../../../storage/index.ts";
import type { EventRecorder } from "@servicenet/client/tools/events";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { getReference } from "@servicenet/client/tools/record";
import type { Lister } from "../../../util/informer/store-informer.ts";

/** Event source, SSA field manager and controller name. */
export const defaultServiceCIDRControllerName = serviceCIDRControllerNames.defaultController;
/** Sync period ("same as DefaultEndpointReconcilerInterval"). */
export const defaultServiceCIDRIntervalMs = 10_000;
/** Poll period until the first sync succeeds (it blocks apiserver startup). */
export const defaultServiceCIDRFirstSyncPollMs = 100;

/** The ServiceCIDR writes the controller makes (a GenericStore with the ServiceCIDR strategy). */
export type ServiceCIDRWriter = Pick<GenericStore, "create" | "update">;

/** A GenericStore for `servicecidrs` over `store`. */
export function newServiceCIDRStore(store: Store): GenericStore {
  return new GenericStore(store, {
    group: "networking.k8s.io",
    resource: "servicecidrs",
    storagePath: "servicecidrs",
    strategy: serviceCIDRStrategy,
  });
}

export interface DefaultServiceCIDRControllerOptions {
  /** The `--service-cluster-ip-range` CIDRs, canonical, primary first (it defines the default family). */
  cidrs: string[];
  serviceCIDRs: ServiceCIDRWriter;
  /** A StoreInformer on `servicecidrs` (started by the caller). */
  informer: Lister<KubeObject> & { waitForSync?(): Promise<void> };
  /** Component `kubernetes-service-cidr-controller`. */
  recorder: EventRecorder;
  intervalMs?: number;
  clock?: Clock;
  /** Where the loop logs (klog's contextual logger); its lines are V(2). */
  logger?: Logger;
}

const cidrsOf = (sc: KubeObject): string[] => ((sc["spec"] as { cidrs?: string[] } | undefined)?.cidrs ?? []).slice();
const readyOf = (sc: KubeObject): Condition | undefined =>
  findCondition((sc as unknown as ServiceCIDR).status?.conditions, serviceCIDRConditionReady);
/** Go's `%v` of a []string. */
const goSlice = (a: readonly string[]): string => `[${a.join(" ")}]`;
const sameCIDRs = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((c, i) => c === b[i]);
const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

export class DefaultServiceCIDRController {
  readonly #o: DefaultServiceCIDRControllerOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #cidrs: readonly string[];
  #reportedMismatchedCIDRs = false;
  #reportedNotReadyCondition = false;
  #loop: Promise<void> = Promise.resolve();

  constructor(opts: DefaultServiceCIDRControllerOptions) {
    this.#o = opts;
    this.#log = V(opts.logger ?? noopLogger, 2);
    this.#clock = opts.clock ?? realClock;
    this.#cidrs = [...opts.cidrs];
  }

  /**
   * Resolves once the default ServiceCIDR exists and the first sync succeeded (polling every
   * 100 ms until then), or when `signal` aborts first; then keeps syncing every interval in the
   * background until `signal` aborts. `stopped()` resolves when that loop has ended.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#o.informer.waitForSync) await Promise.race([this.#o.informer.waitForSync(), aborted(signal)]);
    while (!this.#o.informer.hasSynced()) if (!(await sleep(this.#clock, defaultServiceCIDRFirstSyncPollMs, signal))) return;
    for (;;) {
      if (signal.aborted) return;
      try {
        await this.sync();
        break;
      } catch (e) {
        this.#log.info(`${defaultServiceCIDRControllerName}: error initializing the default ServiceCIDR: ${errText(e)}`);
      }
      if (!(await sleep(this.#clock, defaultServiceCIDRFirstSyncPollMs, signal))) return;
    }
    this.#loop = this.#run(signal);
  }

  /** Resolves when the background loop started by start() has ended. */
  stopped(): Promise<void> {
    return this.#loop;
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (await sleep(this.#clock, this.#o.intervalMs ?? defaultServiceCIDRIntervalMs, signal)) {
      try {
        await this.sync();
      } catch (e) {
        this.#log.info(`${defaultServiceCIDRControllerName}: error trying to sync the default ServiceCIDR: ${errText(e)}`);
      }
    }
  }

  #warn(sc: KubeObject, reason: string, message: string): void {
    this.#o.recorder.eventf(getReference(sc, "ServiceCIDR", "networking.k8s.io/v1"), null, "Warning", reason, "", message);
  }

  /** One reconciliation; throws only when the object could not be created (to be retried). */
  async sync(): Promise<void> {
    const existing = this.#o.informer.get(defaultServiceCIDRName);
    if (existing) {
      const current = cidrsOf(existing);
      if (this.#cidrs.length === 2 && current.length === 1 && this.#cidrs[0] === current[0]) await this.#upgrade(existing);
      else await this.#syncStatus(existing);
      return;
    }
    this.#log.info(`${defaultServiceCIDRControllerName}: creating default ServiceCIDR with CIDRs: ${goSlice(this.#cidrs)}`);
    const desired: KubeObject = {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: defaultServiceCIDRName },
      spec: { cidrs: [...this.#cidrs] },
    };
    let created: KubeObject;
    try {
      created = await this.#o.serviceCIDRs.create(undefined, structuredClone(desired));
    } catch (e) {
      if ((e as { reason?: string }).reason !== "AlreadyExists") {
        this.#warn(desired, "KubernetesDefaultServiceCIDRError", "The default ServiceCIDR can not be created");
        throw e;
      }
      // Another apiserver won the race; its object is judged on the next tick, from the cache.
      return;
    }
    await this.#syncStatus(created);
  }

  async #upgrade(existing: KubeObject): Promise<void> {
    this.#log.info(
      `${defaultServiceCIDRControllerName}: updating default ServiceCIDR from single-stack (${goSlice(cidrsOf(existing))}) to dual-stack (${goSlice(this.#cidrs)})`,
    );
    try {
      await this.#o.serviceCIDRs.update(undefined, defaultServiceCIDRName, async (cur) => {
        const next = structuredClone(cur ?? existing);
        next["spec"] = { ...(next["spec"] as object | undefined), cidrs: [...this.#cidrs] };
        next.metadata.resourceVersion = existing.metadata.resourceVersion;
        return next;
      });
    } catch (e) {
      this.#warn(
        existing,
        "KubernetesDefaultServiceCIDRError",
        `The default ServiceCIDR can not be upgraded from ${this.#cidrs[0]} to dual stack ${goSlice(this.#cidrs)} : ${errText(e)}`,
      );
    }
  }

  async #syncStatus(sc: KubeObject): Promise<void> {
    // Deletion belongs to the controller-manager; once the object is gone it is recreated.
    if (sc.metadata.deletionTimestamp) return;
    if (!sameCIDRs(this.#cidrs, cidrsOf(sc))) {
      if (!this.#reportedMismatchedCIDRs) {
        this.#log.info(
          `${defaultServiceCIDRControllerName}: inconsistent ServiceCIDR status for ${defaultServiceCIDRName}, controller configuration: ${goSlice(this.#cidrs)}, ServiceCIDR configuration: ${goSlice(cidrsOf(sc))}. Configure the flags to match current ServiceCIDR or manually delete it.`,
        );
        this.#warn(
          sc,
          "KubernetesDefaultServiceCIDRInconsistent",
          `The default ServiceCIDR ${goSlice(cidrsOf(sc))} does not match the controller flag configurations ${goSlice(this.#cidrs)}`,
        );
        this.#reportedMismatchedCIDRs = true;
      }
      return;
    }
    const ready = readyOf(sc);
    if (ready?.status === "False") {
      // Set by someone else: report once, never overwrite (that would hot-loop against them).
      if (!this.#reportedNotReadyCondition) {
        this.#warn(sc, ready.reason ?? "", `Configuration matches, but ${ready.message ?? ""}`);
        this.#reportedNotReadyCondition = true;
      }
      return;
    }
    if (ready?.status === "True") return;
    try {
      await this.#applyReady();
    } catch (e) {
      this.#log.info(`${defaultServiceCIDRControllerName}: error updating default ServiceCIDR status: ${errText(e)}`);
      this.#warn(sc, "KubernetesDefaultServiceCIDRError", "The default ServiceCIDR Status can not be set to Ready=True");
    }
  }

  /** Server-side apply of Ready=True to /status, as the controller's field manager, forced. */
  async #applyReady(): Promise<void> {
    const now = this.#clock.now();
    const applied = {
      apiVersion: "networking.k8s.io/v1",
      kind: "ServiceCIDR",
      metadata: { name: defaultServiceCIDRName },
      status: {
        conditions: [
          {
            type: serviceCIDRConditionReady,
            status: "True",
            lastTransitionTime: rfc3339(now),
            reason: "",
            message: serviceCIDRMessages.defaultReady,
          },
        ],
      },
    };
    const objInfo: UpdatedObjectInfo = async (cur) => {
      if (!cur) return applied;
      return applyServerSideApply(cur as unknown as JSONObject, applied, {
        fieldManager: defaultServiceCIDRControllerName,
        force: true,
        now: new Date(now),
        subresource: "status",
      }).object as unknown as KubeObject;
    };
    const params: UpdateParams = { subresource: "status" };
    await this.#o.serviceCIDRs.update(undefined, defaultServiceCIDRName, objInfo, params);
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}
