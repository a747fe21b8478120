/**
 * `Allocators` (upstream pkg/registry/core/service/storage/alloc.go): the
 * IP allocators per family, the primary family and the NodePort allocator,
 * and the create/update/delete entry points the Service registry calls from
 * BeginCreate, BeginUpdate and AfterDelete.
 */
import { type FieldError, type IPFamily, type Service, validateServiceClusterIPsRelatedFields } from "@servicenet/api";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { IPAllocator } from "../ipallocator/interfaces.ts";
import type { PortAllocatorInterface } from "../portallocator/interfaces.ts";
import { releaseClusterIPs, txnAllocClusterIPs, txnUpdateClusterIPs, type ClusterIPContext } from "./alloc-cluster-ips.ts";
import { txnAllocNodePorts, txnUpdateNodePorts } from "./alloc-node-ports.ts";
import { collectServiceNodePorts, needsHealthCheck } from "./helpers.ts";
import { initIPFamilyFields, type IPFamilyContext } from "./ip-family-fields.ts";
import { nameOf } from "./service-view.ts";
import { MetaTransaction, type Transaction } from "./transaction.ts";

/** Construction options, named as upstream's struct fields. */
export interface AllocatorsOptions {
  /** One allocator per configured family (two on a dual-stack cluster). */
  serviceIPAllocatorsByFamily: ReadonlyMap<IPFamily, IPAllocator>;
  /** The family of `--service-cluster-ip-range[0]`. */
  defaultServiceIPFamily: IPFamily;
  /** The `--service-node-port-range` allocator. */
  serviceNodePorts: PortAllocatorInterface;
  /** Step 4 of initIPFamilyFields; defaults to @servicenet/api's `validateServiceClusterIPsRelatedFields`. */
  validateClusterIPsRelatedFields?: (svc: Service) => FieldError[];
  /** Where best-effort clean-up failures and restore skips are logged; default none. */
  logger?: Logger;
  /**
   * Which allocators the registry fills from the stored Services at start: true (default) for
   * in-memory ones, false for those that keep their state in storage (RangeAllocation bitmaps,
   * IPAddress objects), which repair loops reconcile instead.
   */
  restoreFromServices?: { clusterIPs: boolean; nodePorts: boolean };
}

/** The allocators a Service registry needs, and the allocation flow over them. */
export class Allocators {
  readonly serviceIPAllocatorsByFamily: ReadonlyMap<IPFamily, IPAllocator>;
  readonly defaultServiceIPFamily: IPFamily;
  readonly serviceNodePorts: PortAllocatorInterface;
  readonly restoreFromServices: { clusterIPs: boolean; nodePorts: boolean };
  readonly #families: IPFamilyContext;
  readonly #ips: ClusterIPContext;
  /** The registry built on these allocators logs here too. */
  readonly logger: Logger;

  constructor(opts: AllocatorsOptions) {
    if (!opts.serviceIPAllocatorsByFamily.has(opts.defaultServiceIPFamily)) {
      throw new Error(`default service IP family ${opts.defaultServiceIPFamily} has no allocator`);
    }
    this.serviceIPAllocatorsByFamily = opts.serviceIPAllocatorsByFamily;
    this.defaultServiceIPFamily = opts.defaultServiceIPFamily;
    this.serviceNodePorts = opts.serviceNodePorts;
    this.restoreFromServices = opts.restoreFromServices ?? { clusterIPs: true, nodePorts: true };
    this.logger = opts.logger ?? noopLogger;
    this.#families = {
      configuredFamilies: new Set(opts.serviceIPAllocatorsByFamily.keys()),
      defaultFamily: opts.defaultServiceIPFamily,
      validateClusterIPsRelatedFields: opts.validateClusterIPsRelatedFields ?? validateServiceClusterIPsRelatedFields,
    };
    this.#ips = { serviceIPAllocatorsByFamily: opts.serviceIPAllocatorsByFamily, logger: this.logger };
  }

  /** True when two families are configured. */
  isDualStack(): boolean {
    return this.serviceIPAllocatorsByFamily.size === 2;
  }

  /**
   * Defaults ipFamilyPolicy/ipFamilies of `after` (mutated) for the cluster's
   * families; `before` is the stored object on update. Throws StatusError 422.
   */
  initIPFamilyFields(after: Service, before: Service | null = null): void {
    initIPFamilyFields(this.#families, after, before);
  }

  /**
   * BeginCreate: family defaulting (visible even on dry-run), then ClusterIPs,
   * then node ports. Commit the result when the write succeeded, revert otherwise.
   */
  async allocateCreate(svc: Service, dryRun: boolean): Promise<Transaction> {
    const result = new MetaTransaction();
    this.initIPFamilyFields(svc, null);
    result.add(await txnAllocClusterIPs(this.#ips, svc, dryRun));
    try {
      result.add(await txnAllocNodePorts(this.serviceNodePorts, svc, dryRun));
    } catch (err) {
      await result.revert();
      throw err;
    }
    return result;
  }

  /**
   * BeginUpdate: new IPs/ports are allocated now and released on revert; IPs
   * and ports the update gives up are released only on commit, so a failed
   * update never loses the old values.
   */
  async allocateUpdate(after: Service, before: Service, dryRun: boolean): Promise<Transaction> {
    const result = new MetaTransaction();
    try {
      this.initIPFamilyFields(after, before);
      result.add(await txnUpdateClusterIPs(this.#ips, after, before, dryRun));
      result.add(await txnUpdateNodePorts(this.serviceNodePorts, after, before, dryRun));
    } catch (err) {
      await result.revert();
      throw err;
    }
    return result;
  }

  /** AfterDelete (non-dry-run): releases every clusterIP, node port and the HCNP. Never throws. */
  async releaseAllocatedResources(svc: Service): Promise<void> {
    try {
      await releaseClusterIPs(this.#ips, svc);
    } catch (err) {
      this.logger.error("error releasing service clusterIPs", { service: nameOf(svc), error: String(err) });
    }
    const ports = collectServiceNodePorts(svc);
    const hcnp = svc.spec?.healthCheckNodePort ?? 0;
    if (needsHealthCheck(svc) && hcnp > 0) ports.push(hcnp);
    for (const port of ports) {
      try {
        await this.serviceNodePorts.release(port);
      } catch (err) {
        // An eventual repair pass reclaims it.
        this.logger.error(`Error releasing service ${nameOf(svc)} node port ${port}`, { error: String(err) });
      }
    }
  }

  /** Stops every allocator. */
  destroy(): void {
    this.serviceNodePorts.destroy();
    for (const a of this.serviceIPAllocatorsByFamily.values()) a.destroy();
  }
}
